/**
 * BlenderKit (https://www.blenderkit.com): models, materials and HDRIs for Blender, free and paid (a subscription plan). Live: searched through its public
 * search API. Free assets download without an account: the download API hands out a signed URL of the file, a plain GET; assets of a plan need the key of a
 * person who has it (`BLENDERKIT_API_KEY`, as a Bearer token).
 */
import { z } from "zod";
import { licenseById, licenseFamily, normalizeLicense } from "../core/model/license.ts";
import { type Asset, type AssetDetails, type AssetFile, type AssetType, assetMaker, compact, type License, round } from "./kit/asset.ts";
import { sum } from "./kit/census.ts";
import { isoTime } from "./kit/dates.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { type SourceIo, shapeError, unlessGone } from "./kit/fetch.ts";
import { extensionOf } from "./kit/files.ts";
import { LICENSE_TERMS, mapOne, type SearchFilters, type Sort } from "./kit/filters.ts";
import { parseList } from "./kit/list.ts";
import { collectWindow } from "./kit/page-window.ts";

const SITE = "https://www.blenderkit.com";
const API = `${SITE}/api/v1`;
const ID = "blenderkit";
const KEY_ENV = "BLENDERKIT_API_KEY";
const asset = assetMaker(ID);
/** A fixed scene id for every download request: BlenderKit wants one (it groups the downloads of one Blender scene), any UUID does. */
export const SCENE_UUID = "5c0e7d2a-4b1f-4e8a-9c3d-a55e75ea2c40";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_PAGE_SIZE = 100; // the largest page the search API serves
/** BlenderKit's asset types we search, per contract type, in the order they are asked. */
const UPSTREAM_TYPES = Object.entries({ model: ["model", "printable", "scene"], material: ["material"], hdri: ["hdr"] }) as Array<[AssetType, string[]]>;

const [str, num, bool] = [z.string().nullish(), z.number().nullish(), z.boolean().nullish()];

const File = z.looseObject({ fileType: z.string(), uuid: z.string().regex(UUID), filename: str, fileUploadSize: num, isThumbnail: bool });
type File = z.infer<typeof File>;

const BkAsset = z
  .looseObject({ id: z.string(), assetBaseId: z.string().regex(UUID), name: z.string(), displayName: str, description: str, assetType: z.string() })
  .extend({ category: str, tags: z.array(z.string()).nullish(), isFree: bool, isForSale: bool, basePrice: num, canDownload: bool, license: str, created: str })
  .extend({ author: z.looseObject({ fullName: str }).nullish(), files: z.array(File).nullish(), thumbnailMiddleUrl: str, thumbnailSmallUrl: str })
  .extend({ dictParameters: z.looseObject({ faceCount: num, rig: bool, animated: bool }).nullish() });
type BkAsset = z.infer<typeof BkAsset>;

const SearchPage = z.looseObject({ count: z.number(), next: str, results: z.array(z.unknown()) });
const Download = z.looseObject({ filePath: z.url({ protocol: /^https$/ }) });

const assetPage = (baseId: string) => `${SITE}/asset-gallery-detail/${baseId}/`;
const headers = ({ config }: SourceIo) => (config.keys[KEY_ENV] ? { authorization: `Bearer ${config.keys[KEY_ENV]}` } : undefined);

/**
 * The search's `field:value` terms its clients send: `license:cc_zero` (its only licence besides royalty_free), `category_subtree:<slug>`,
 * `faceCount_lte:<n>`, `textureResolutionMax_gte:<pixels>`, `animated:true`, `order:-created` (newest first). One value each: several
 * wanted ones (any of) are left to the search.
 */
export function filterTerms(filters: SearchFilters, sort: Sort): string[] {
  const license = mapOne(filters.license, (t) => (licenseFamily(t) === "cc0" ? "cc_zero" : undefined));
  const category = mapOne(filters.category, (c) => (/^[a-z0-9-]+$/.test(c) ? c : undefined));
  return [
    license ? `license:${license}` : "",
    category ? `category_subtree:${category}` : "",
    filters.maxPolys !== undefined ? `faceCount_lte:${filters.maxPolys}` : "",
    filters.resolution !== undefined ? `textureResolutionMax_gte:${filters.resolution * 1024}` : "",
    filters.animated ? "animated:true" : "",
    sort === "newest" ? "order:-created" : "",
  ].filter(Boolean);
}

/** Words and filters joined with `+`, each encoded as BlenderKit's own clients do (`asset_type%3Amodel%2Cscene`). */
function queryParam(q: string, types: string[], free: boolean, more: string[] = []): string {
  const terms = [q.trim(), types.length ? `asset_type:${types.join(",")}` : "", free ? "is_free:true" : "", ...more];
  return encodeURIComponent(terms.filter(Boolean).join(" ")).replace(/%20/g, "+");
}

/** BlenderKit types for the asked contract types (any type: all of ours); empty when none applies. */
export const upstreamTypes = (types: AssetType[]): string[] =>
  UPSTREAM_TYPES.filter(([t]) => !types.length || types.includes(t) || (t === "material" && types.includes("texture"))).flatMap(([, upstream]) => upstream);

export const searchApiUrl = (q: string, types: string[], freeOnly: boolean, pageSize: number, page: number, more: string[] = []) =>
  `${API}/search/?query=${queryParam(q, types, freeOnly, more)}&page_size=${pageSize}${page > 1 ? `&page=${page}` : ""}`;

function license(raw: string | null | undefined): License | undefined {
  if (raw === "cc_zero") return licenseById("CC0-1.0");
  if (raw === "royalty_free") return { name: "BlenderKit Royalty Free License", url: `${SITE}/docs/licenses/` };
  return raw ? normalizeLicense(raw.replace(/_/g, " ")) : undefined;
}

/** `resolution_0_5K` → `0.5k`, `resolution_2K` → `2k`; other file types have none. */
function resolutionOf(fileType: string): string | undefined {
  const m = /^resolution_(\d+)(?:_(\d+))?K$/i.exec(fileType);
  return m ? `${m[2] ? `${m[1]}.${m[2]}` : m[1]}k` : undefined;
}

const payloads = (a: BkAsset): File[] => (a.files ?? []).filter((f) => !f.isThumbnail && f.fileType !== "thumbnail");

function toAsset(a: BkAsset): Asset {
  const files = payloads(a);
  const free = a.isFree === true;
  const amount = !free && a.isForSale ? a.basePrice : undefined;
  return asset(a.assetBaseId, {
    title: a.displayName || a.name,
    description: a.description?.trim(),
    type: UPSTREAM_TYPES.find(([, upstream]) => upstream.includes(a.assetType))?.[0] ?? "other",
    tags: a.tags,
    categories: a.category ? [a.category] : undefined,
    url: assetPage(a.assetBaseId),
    thumbnailUrl: a.thumbnailMiddleUrl ?? a.thumbnailSmallUrl,
    author: a.author?.fullName?.trim(),
    license: license(a.license),
    price: amount != null ? { free, amount, currency: "USD" } : { free },
    formats: [...new Set(files.flatMap((f) => extensionOf(f.filename) ?? []))],
    resolutions: [...new Set(files.flatMap((f) => resolutionOf(f.fileType) ?? []))],
    polyCount: round(a.dictParameters?.faceCount),
    animated: a.dictParameters?.animated,
    rigged: a.dictParameters?.rig,
    // canDownload is computed for the caller: anonymous (or the configured key's plan).
    downloadable: a.canDownload === true && files.length > 0,
    createdAt: isoTime(a.created),
  });
}

async function searchPage(url: string, io: SourceIo): Promise<{ items: BkAsset[]; total: number }> {
  const page = await io.get(url, SearchPage, headers(io));
  return { items: parseList(ID, url, BkAsset, page.results).items, total: page.count };
}

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  const types = upstreamTypes(query.types);
  // `animated:true` is the only form of that filter, and listings carry no animation flag to check "not animated" against.
  if (!types.length || query.filters.animated === false) return { assets: [] };
  // Without a key only free assets download; with one, the plan decides (filtered below).
  const freeOnly = query.free || (query.downloadable && !io.config.keys[KEY_ENV]);
  const pageSize = Math.min(Math.max(1, query.limit), MAX_PAGE_SIZE);
  const more = filterTerms(query.filters, query.sort);
  const { items, total } = await collectWindow(query, pageSize, io, (page) => searchPage(searchApiUrl(query.q, types, freeOnly, pageSize, page, more), io));
  return { assets: items.map(toAsset).filter((a) => !query.downloadable || a.downloadable), ...compact({ total, searchUrl: searchUrl(query) }) };
}

function fileBase(f: File): Omit<AssetFile, "url"> {
  const format = extensionOf(f.filename) ?? "bin";
  const kind = f.fileType.toLowerCase();
  const group = format === "blend" ? "blend" : format === "hdr" || format === "exr" ? "hdri" : kind.startsWith("gltf") ? kind : format;
  const filename = f.filename ? (f.filename.split("/").pop() ?? f.filename) : `${f.uuid}.${format}`;
  return compact({ filename, format, resolution: resolutionOf(f.fileType), sizeBytes: round(f.fileUploadSize), group });
}

/** A file as a login/plan link to the asset's page. */
const pageFile = (a: BkAsset, f: File): AssetFile => ({ ...fileBase(f), url: assetPage(a.assetBaseId), requiresAuth: true });

/** The signed URL of one file, or a page link when the download API refuses the caller. */
async function resolveFile(a: BkAsset, f: File, io: SourceIo): Promise<AssetFile> {
  const url = `${API}/downloads/${f.uuid}/?scene_uuid=${SCENE_UUID}`;
  const body = await io.json(url, headers(io)).catch((err) => ([401, 402, 403].includes(err.status) ? undefined : Promise.reject(err)));
  if (body === undefined) return pageFile(a, f);
  const filePath = Download.safeParse(body).data?.filePath;
  if (!filePath) throw shapeError(ID, url, `download answer of file ${f.uuid} has no filePath`);
  return { url: filePath, ...fileBase(f) };
}

async function getAsset(baseId: string, io: SourceIo): Promise<AssetDetails | null> {
  if (!UUID.test(baseId)) return null;
  const id = baseId.toLowerCase();
  const page = await unlessGone(searchPage(`${API}/search/?query=asset_base_id:${id}`, io));
  const a = page?.items.find((x) => x.assetBaseId.toLowerCase() === id);
  if (!a) return null;
  const files = await Promise.all(payloads(a).map((f) => (a.canDownload === true ? resolveFile(a, f, io) : pageFile(a, f))));
  return { ...toAsset(a), downloadable: files.some((f) => !f.requiresAuth), files };
}

async function census(io: SourceIo): Promise<CensusBody> {
  const count = async (types: string[], freeOnly: boolean) => (await searchPage(searchApiUrl("", types, freeOnly, 1, 1), io)).total;
  const perType = await Promise.all(UPSTREAM_TYPES.map(async ([type, upstream]) => [type, await count(upstream, false)] as const));
  return {
    total: sum(perType, ([, n]) => n),
    free: await count(upstreamTypes([]), true),
    byType: Object.fromEntries(perType),
    method: "BlenderKit search API: the count of an empty search per asset type (models with printables and scenes, materials, HDRIs) and of the free ones",
  };
}

/** The site's asset gallery, with the same query words and filters. */
const searchUrl = (query: SourceQuery) => `${SITE}/asset-gallery?query=${queryParam(query.q, upstreamTypes(query.types), query.free)}`;

export const blenderkit = defineSource(
  {
    id: ID,
    name: "BlenderKit",
    homepage: SITE,
    description: "Best for Blender-ready models, materials and HDRIs: free ones download directly, plan assets with a key.",
    assetTypes: ["model", "material", "hdri"],
    access: "api",
    pricing: "freemium",
    supportsDownload: true,
    key: { env: KEY_ENV, required: false },
    unit: "assets",
    // No download count in search results (so no "popular"); licences other than CC0 and royalty-free have no upstream form, and the
    // listings' licence (an SPDX id for CC0 only) lets the search check them.
    filtering: {
      upstream: ["license", "category", "maxPolys", "resolution", "animated", "newest"],
      listed: [...LICENSE_TERMS, "author", "category", "format", "resolution", "maxPolys", "rigged", "newest"],
    },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
