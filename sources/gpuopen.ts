/**
 * AMD GPUOpen MaterialX Library (https://matlib.gpuopen.com): free MaterialX materials, each with a few zip packages
 * (the .mtlx document and its textures). Indexed: the whole catalogue is a few pages of its public REST API.
 *
 * - `GET https://api.matlib.gpuopen.com/api/materials/?limit=100&offset=0` → `{ count, next, previous, results }`;
 *   `next` is the following page's URL, null on the last. A result has `id`, `title`, `description` (often null),
 *   `author`, `license`, `material_type` (Static or Parametric), `mtlx_material_name`, `packages[]` and
 *   `renders_order[]` (UUIDs), `published_date`; its `category` and `tags[]` are UUIDs whose names are not in it.
 * - `GET /api/packages/<uuid>/download` → the package zip (as kwokcb/materialxMaterials' GPUOpenLoader downloads it).
 * - The material page `https://matlib.gpuopen.com/main/materials/all?material=<id>` and the render image
 *   `https://image.matlib.gpuopen.com/<render>.jpeg` of the first of `renders_order` are the forms 3Dassets.one's
 *   indexer of this site uses (struffel/3d-assets-one, src/include/creator/logic/CreatorLogicAmdGpuOpen.php).
 */
import { z } from "zod";
import { licenseKey, normalizeLicense } from "../core/model/license.ts";
import { type Asset, type AssetDetails, type AssetFile, assetMaker, compact, type License } from "./kit/asset.ts";
import { addedLast30Days, countBy, latest } from "./kit/census.ts";
import { isoTime } from "./kit/dates.ts";
import { type CensusBody, defineSource } from "./kit/define.ts";
import { type SourceIo, shapeError } from "./kit/fetch.ts";
import { parseList } from "./kit/list.ts";

const ID = "gpuopen";
const SITE = "https://matlib.gpuopen.com";
const API = "https://api.matlib.gpuopen.com/api";
const FIRST_PAGE = `${API}/materials/?limit=100&offset=0`;
/** A guard against `next` links that never end: 5,000 materials, ten times the catalogue of 2024. */
const MAX_PAGES = 50;
const asset = assetMaker(ID);

/**
 * The licence every material states, "MIT Public Domain": one label naming two regimes, so no SPDX id is claimed.
 * Both allow commercial use. The MIT terms ask that their copyright and permission notice be kept with copies, and
 * public domain asks nothing: the stricter reading is taken, attribution required, as nothing says which applies.
 */
export const SITE_LICENSE: License = { name: "MIT Public Domain", commercialUse: true, attributionRequired: true };

const UUID = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
const str = z.string().nullish();
const Material = z.looseObject({
  id: UUID,
  title: z.string().trim().min(1),
  description: str,
  author: str,
  license: str,
  material_type: str,
  mtlx_material_name: z.string().min(1),
  packages: z.array(UUID),
  renders_order: z.array(UUID).default([]),
  published_date: str,
});
type Material = z.infer<typeof Material>;
const Page = z.looseObject({ next: z.string().nullish(), results: z.array(z.unknown()) });

/** A material's licence: the site's label as above, any other the way the project reads licence names. */
const licenseOf = (m: Material): License => (m.license && m.license !== SITE_LICENSE.name && normalizeLicense(m.license)) || SITE_LICENSE;

const pageUrl = (id: string) => `${SITE}/main/materials/all?material=${encodeURIComponent(id)}`;
export const packageUrl = (uuid: string) => `${API}/packages/${uuid}/download`;

/** One zip per package. The download names no file here, so each is named after the material, numbered in the API's order. */
const filesOf = (m: Material): AssetFile[] =>
  m.packages.map((uuid, i) => ({ url: packageUrl(uuid), filename: `${m.mtlx_material_name}-${i + 1}.zip`, format: "zip", group: "archive" }));

/**
 * The original a material republishes, as its description names it: the 169 "TH:" materials of the recorded catalogue
 * say "Texture Haven material by <authors>. Link to the original: https://polyhaven.com/a/<id>", or "Original
 * material:", "Link to the original material:", with or without the space.
 */
const originalOf = (m: Material) => m.description?.match(/\boriginal(?: material)?:\s*(https?:\/\/\S+)/i)?.[1];

function toAsset(m: Material): Asset {
  return asset(m.id, {
    title: m.title,
    description: m.description?.trim(),
    originalUrl: originalOf(m),
    type: "material",
    // Every package holds a MaterialX document; "parametric" is the site's word for a material with adjustable inputs.
    tags: ["MaterialX", ...(m.material_type === "Parametric" ? ["parametric"] : [])],
    url: pageUrl(m.id),
    thumbnailUrl: m.renders_order[0] && `https://image.matlib.gpuopen.com/${m.renders_order[0]}.jpeg`,
    author: m.author,
    license: licenseOf(m),
    price: { free: true },
    formats: ["zip", "mtlx"],
    downloadable: m.packages.length > 0,
    createdAt: isoTime(m.published_date),
  });
}

/** Every material of every page, following `next` on the API's own host, each material once. */
async function catalogue(io: SourceIo): Promise<{ materials: Material[]; pages: number }> {
  const materials = new Map<string, Material>();
  let url: string | null | undefined = FIRST_PAGE;
  let pages = 0;
  for (; url && pages < MAX_PAGES; pages++) {
    if (new URL(url).origin !== new URL(API).origin) throw shapeError(ID, url, `next page ${url} is not on the API`);
    const page: z.infer<typeof Page> = await io.get(url, Page);
    for (const m of parseList(ID, url, Material, page.results).items) if (!materials.has(m.id)) materials.set(m.id, m);
    url = page.next;
  }
  return { materials: [...materials.values()], pages };
}

const crawl = async (io: SourceIo) => (await catalogue(io)).materials.map(toAsset);

/** A material with one file per package, from the same pages (the per-material endpoint says nothing more we use). */
async function getAsset(id: string, io: SourceIo): Promise<AssetDetails | null> {
  const m = (await catalogue(io)).materials.find((x) => x.id === id);
  return m ? { ...toAsset(m), files: filesOf(m) } : null;
}

async function census(io: SourceIo): Promise<CensusBody> {
  const { materials, pages } = await catalogue(io);
  const now = io.now();
  const published = (m: Material) => Date.parse(m.published_date ?? "");
  const newest = latest(materials, published, now);
  return compact({
    total: materials.length,
    free: materials.length,
    byLicense: countBy(materials, (m) => licenseKey(licenseOf(m))),
    addedLast30Days: addedLast30Days(now, materials.map(published)),
    highlights: newest && [{ label: "Newest material", title: newest.title, url: pageUrl(newest.id) }],
    method: `GPUOpen MaterialX Library API: every material of its ${pages} /api/materials/ page${pages === 1 ? "" : "s"} counted (all free; categories are ids without names)`,
  });
}

export const gpuopen = defineSource(
  {
    id: ID,
    name: "AMD GPUOpen MaterialX Library",
    homepage: SITE,
    description: "Best for free MaterialX (.mtlx) PBR materials by AMD, each a direct zip with its textures.",
    assetTypes: ["material"],
    access: "api",
    pricing: "free",
    license: SITE_LICENSE,
    supportsDownload: true,
    unit: "assets",
  },
  // No search parameter of the library's page is documented: the link opens the whole library.
  { mode: "indexed", searchUrl: () => `${SITE}/main/materials/all`, crawl, getAsset, census },
);
