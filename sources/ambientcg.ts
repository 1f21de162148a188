/**
 * ambientCG (https://ambientcg.com): CC0 PBR materials, HDRIs, 3D models, decals and atlases. Indexed: API v2
 * `downloads_csv` lists the whole catalogue in one request, one row per download file (`assetId`, `downloadAttribute`
 * such as `2K-JPG` or `LQ-1K-PNG`, `filetype`, `size`, `downloadLink`).
 *
 * The CSV has no titles, tags, dates or types: the crawl reads the title and category from the id, the type from the
 * files, and formats and resolutions from the attributes. Details (tags, description, release date, download count
 * and every file) come live from API v3 `?id=`: one small answer, where the CSV is 3.5 MB for one asset's rows.
 *
 * Downloads go through the site's own `/get?file=<name>` links, which log the download for its statistics, as the site asks.
 */
import { z } from "zod";
import { licenseById } from "../core/model/license.ts";
import { type Asset, type AssetDetails, type AssetFile, type AssetType, assetMaker, compact, round } from "./kit/asset.ts";
import { countBy } from "./kit/census.ts";
import { isoDay } from "./kit/dates.ts";
import { type CensusBody, defineSource, type SourceQuery } from "./kit/define.ts";
import { expectShape, type SourceIo, shapeError, unlessGone } from "./kit/fetch.ts";
import { fileNameOf } from "./kit/files.ts";
import { parseList } from "./kit/list.ts";
import { cc0Site, kResolution, sortResolutions } from "./kit/texture-sites.ts";
import { isHttpUrl } from "./kit/url.ts";

const ID = "ambientcg";
const SITE = "https://ambientcg.com";
const DESCRIPTION = "Best for CC0 PBR materials (plus HDRIs, decals and a few scanned models) with direct zip downloads per resolution.";
const API = `${SITE}/api/v3/assets`;
const CSV_URL = `${SITE}/api/v2/downloads_csv`;
/** Every field an asset and its files need, in one request. */
const INCLUDE = "type,title,url,tags,shortDescription,releaseDate,maps,technique,downloadStatistics,thumbnails,downloads";
/**
 * The 256 px PNG thumbnail of an asset, named by its id: every `thumbnails["256-PNG"]` of the v3 answers recorded in
 * test/fixtures/ambientcg (Wood094–096, 3DApple001–003, DaySkyHDRI071B: materials, models and an HDRI) is this URL.
 */
const THUMBNAILS = "https://acg-media.struffelproductions.com/file/ambientCG-Web/media/thumbnail/256-PNG";
const asset = assetMaker(ID);
const pageUrl = (assetId: string) => `${SITE}/a/${encodeURIComponent(assetId)}`;

/** ambientCG's asset types and ours. Asked types go to the list page as `type=` lists of theirs in this order, so one set gives one URL. */
const TYPES: Record<string, AssetType> = {
  material: "material",
  substance: "material",
  decal: "texture",
  atlas: "texture",
  hdri: "hdri",
  "3d-model": "model",
  terrain: "other",
};

/** `attributes` such as `2K-JPG` or `LQ-1K-PNG`; `url` is the site's `/get?file=` link. */
const Download = z.looseObject({ attributes: z.string(), extension: z.string(), url: z.string(), size: z.number().optional() });
type Download = z.infer<typeof Download>;
/** What a download is, as both v3 and a row of the downloads CSV say it. */
type Kind = Pick<Download, "attributes" | "extension">;
const V3Asset = z
  .looseObject({ id: z.string().min(1), type: z.string(), title: z.string(), url: z.string().optional(), tags: z.array(z.string()).optional() })
  .extend({ shortDescription: z.string().nullish(), releaseDate: z.string().nullish(), thumbnails: z.record(z.string(), z.string()).nullish() })
  .extend({ downloads: z.array(Download).nullish(), downloadStatistics: z.looseObject({ total: z.number().int().min(0).optional() }).nullish() });
const V3Response = z.looseObject({ totalResults: z.number(), assets: z.array(z.unknown()) });

/** The `type=` values for a query: undefined = no filter; [] = nothing of this source fits. */
function upstreamTypes(types: readonly AssetType[]): string[] | undefined {
  return types.length === 0 || types.includes("other") ? undefined : Object.keys(TYPES).filter((t) => types.includes(TYPES[t]!));
}

/** "Day Sky HDRI 071 B" → ["Day Sky HDRI"]; "3D Apple 002" → ["3D Apple"]: the words before the number. */
function categoriesOf(title: string): string[] {
  const words = title.trim().split(/\s+/);
  const end = words.findIndex((w) => /^\d+$/.test(w));
  return end > 0 ? [words.slice(0, end).join(" ")] : [];
}

/**
 * An id as the site titles it: "PavingStones137" → "Paving Stones 137", "DaySkyHDRI071B" → "Day Sky HDRI 071 B",
 * "3DApple002" → "3D Apple 002" (the v3 recordings' titles of such ids); the words before the number are the category.
 */
function idTitle(assetId: string): { title: string; category: string } {
  const [, prefix = "", number = "", letter = ""] = /^(.*?)(\d+)([A-Z]?)$/.exec(assetId) ?? [];
  const category = (prefix || assetId).replace(/(?<=.)(?=[A-Z][a-z])|(?<=[a-z])(?=[A-Z])/g, " ").trim();
  return { title: prefix ? [category, number, letter].filter(Boolean).join(" ") : category, category };
}

/**
 * Formats offered: each file's own, and for an archive those its attributes name inside it (`LQ-2K-PNG` → png; `2K` → none).
 * Only an archive's: the `HDR` and `TONEMAPPED` of a loose EXR or JPG of an HDRI name no format.
 */
function formatsOf(downloads: readonly Kind[]): string[] {
  const inner = (attributes: string) => attributes.split("-").flatMap((t) => (t && !/^(\d+K|[LSH]Q)$/i.test(t) ? [t.toLowerCase()] : []));
  const formats = downloads.flatMap(({ attributes, extension }) => {
    const own = extension.toLowerCase();
    return [own, ...(own === "zip" ? inner(attributes) : [])];
  });
  return [...new Set(formats)];
}

const resolutionsOf = (downloads: readonly Kind[]) => sortResolutions(downloads.flatMap((d) => kResolution(d.attributes) ?? []));

/** What every asset is: CC0 and free. */
const cc0 = { license: licenseById("CC0-1.0"), price: { free: true } };

/** One download through the site's /get link, named as its link names it (`?file=` of a /get link, else the last path segment). */
function fileOf(d: Download, assetId: string): AssetFile {
  const link = URL.canParse(d.url) ? new URL(d.url) : undefined;
  const named = link && (link.searchParams.get("file") ?? fileNameOf(link));
  const filename = named || `${assetId}_${d.attributes}.${d.extension}`; // the documented naming scheme
  const url = `${SITE}/get?file=${encodeURIComponent(filename)}`;
  const resolution = kResolution(d.attributes);
  return compact({ url, filename, format: d.extension.toLowerCase(), resolution, sizeBytes: round(d.size), group: "archive" });
}

function toAsset(a: z.infer<typeof V3Asset>) {
  const downloads = a.downloads ?? [];
  return asset(a.id, {
    ...cc0,
    title: a.title,
    description: a.shortDescription?.trim(),
    type: TYPES[a.type] ?? "other",
    tags: a.tags,
    categories: categoriesOf(a.title),
    url: isHttpUrl(a.url) ? a.url : pageUrl(a.id),
    thumbnailUrl: a.thumbnails?.["256-PNG"] ?? Object.values(a.thumbnails ?? {})[0],
    formats: formatsOf(downloads),
    resolutions: resolutionsOf(downloads),
    downloadable: downloads.length > 0,
    createdAt: isoDay(a.releaseDate),
    downloads: a.downloadStatistics?.total,
  });
}

/** One file per download: an archive per resolution and format. */
async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  const url = `${API}?id=${encodeURIComponent(nativeId)}&include=${INCLUDE}`;
  const answer = await unlessGone(io.json(url));
  if (answer === undefined) return null;
  const body = expectShape(ID, url, V3Response, answer, "API v3 answer has no totalResults/assets");
  const found = parseList(ID, url, V3Asset, body.assets).items.find((a) => a.id === nativeId);
  return found ? { ...toAsset(found), files: (found.downloads ?? []).map((d) => fileOf(d, found.id)) } : null;
}

/** The downloads CSV's rows by asset id, in the CSV's order: what the crawl and the census both read. */
async function downloadsByAsset(io: SourceIo): Promise<Map<string, Kind[]>> {
  const [head = "", ...lines] = (await io.text(CSV_URL)).text.split(/\r?\n/).filter((l) => l.trim());
  const header = head.split(",").map((h) => h.trim());
  const columns = ["assetId", "downloadAttribute", "filetype"].map((name) => header.indexOf(name));
  if (columns.some((c) => c < 0)) throw shapeError(ID, CSV_URL, "downloads_csv has no assetId/downloadAttribute/filetype columns");
  const byAsset = new Map<string, Kind[]>();
  for (const cells of lines.map((line) => line.split(",").map((cell) => cell.trim()))) {
    const [id = "", attributes = "", extension = ""] = columns.map((c) => cells[c] ?? "");
    if (id) byAsset.set(id, [...(byAsset.get(id) ?? []), { attributes, extension: extension.toLowerCase() }]);
  }
  if (byAsset.size === 0) throw shapeError(ID, CSV_URL, "downloads_csv lists no assets");
  return byAsset;
}

/** What an asset is, from its download files alone (the CSV has no type column). */
function csvType(rows: readonly Kind[]): AssetType {
  if (rows.some((r) => /HDR|TONEMAPPED/i.test(r.attributes))) return "hdri";
  if (rows.some((r) => /^[LSH]Q-\d+K/i.test(r.attributes))) return "model";
  if (rows.some((r) => r.extension === "obj")) return "other"; // terrains: heightmap + mesh
  return "material"; // PBR map archives and Substance files (decals and atlases cannot be told apart here)
}

/** One asset per id of the downloads CSV; every one has files, so every one is downloadable. */
async function crawl(io: SourceIo): Promise<Asset[]> {
  return [...(await downloadsByAsset(io))].map(([id, rows]) => {
    const { title, category } = idTitle(id);
    return asset(id, {
      ...cc0,
      title,
      type: csvType(rows),
      categories: [category],
      url: pageUrl(id),
      thumbnailUrl: `${THUMBNAILS}/${encodeURIComponent(id)}.png`,
      formats: formatsOf(rows),
      resolutions: resolutionsOf(rows),
      downloadable: true,
    });
  });
}

async function census(io: SourceIo): Promise<CensusBody> {
  const byAsset = await downloadsByAsset(io);
  const total = byAsset.size;
  return {
    total,
    free: total,
    byType: countBy(byAsset, ([, rows]) => csvType(rows)),
    categories: countBy(byAsset, ([id]) => idTitle(id).category),
    method:
      "ambientCG API v2 downloads_csv (one row per download file of every asset): distinct asset ids counted; type read from the files " +
      "(HDR/tonemapped → hdri, LQ/SQ/HQ levels of detail → model, meshes without them → other, the rest → material), category from the id",
  };
}

/** The same search on ambientCG's own list page. */
function searchUrl(query: SourceQuery): string {
  const q = query.q.trim();
  const types = upstreamTypes(query.types);
  const params = [...(q ? [`q=${encodeURIComponent(q)}`] : []), ...(types?.length ? [`type=${types.join(",")}`] : [])];
  return [`${SITE}/list`, params.join("&")].filter(Boolean).join("?");
}

export const ambientcg = defineSource(
  {
    ...cc0Site(ID, "ambientCG", SITE),
    description: DESCRIPTION,
    assetTypes: ["material", "texture", "hdri", "model", "other"],
    access: "api",
    supportsDownload: true,
  },
  { mode: "indexed", searchUrl, crawl, getAsset, census },
);
