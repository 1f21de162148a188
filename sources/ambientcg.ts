/**
 * ambientCG (https://ambientcg.com): CC0 PBR materials, HDRIs, 3D models, decals and atlases, with
 * a public JSON API. Live: searched through API v3 at search time.
 *
 * Why live and not indexed: the only whole-catalogue listing we have a recording of is the v2
 * `downloads_csv` (asset ids and their download files, no titles, tags, types or dates), which is
 * enough to count the catalogue but not to search it; v3 answers searches with everything a result
 * needs in one request.
 *
 * Upstream shapes used here:
 * - `GET /api/v3/assets?q=&type=&limit=&offset=&include=…` → `{ totalResults, assets: [...] }`; each
 *   asset has `id`, `type` (`material`, `hdri`, `3d-model`, …), `title`, `url`, `tags`,
 *   `releaseDate`, `thumbnails` (`256-PNG` …) and `downloads` (`attributes` such as `2K-JPG` or
 *   `LQ-1K-PNG`, `extension`, `url` = the `/get?file=` link, `size`).
 * - `GET /api/v3/assets?id=<id>&include=…` → the same envelope with zero or one asset.
 * - `GET /api/v2/downloads_csv` → `assetId,downloadAttribute,filetype,size,downloadLink,rawLink`,
 *   one row per downloadable file of every asset (the census).
 *
 * Downloads use ambientCG's own `https://ambientcg.com/get?file=<name>` links (they log the download
 * for the site's statistics, then redirect to the file), as the site asks.
 */
import { z } from "zod";
import type { Source, SourceContext, SourceQuery, SourceSearchResult } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, AssetType, SourceCensus } from "../core/schemas/index.ts";
import { licenseById } from "../core/license.ts";
import { fetchJson, fetchText, shapeError, unlessGone } from "./kit/fetch.ts";
import { kResolution, sortResolutions, typeFilter } from "./kit/texture-sites.ts";

const ID = "ambientcg";
const NAME = "ambientCG";
const SITE = "https://ambientcg.com";
const API = `${SITE}/api/v3/assets`;
const CSV_URL = `${SITE}/api/v2/downloads_csv`;
/** Every field a result and its files need, in one request. */
const INCLUDE = "type,title,url,tags,shortDescription,releaseDate,maps,technique,downloadStatistics,thumbnails,downloads";

/** ambientCG's asset types and ours. */
const TYPES: Record<string, AssetType> = {
  material: "material",
  substance: "material",
  decal: "texture",
  atlas: "texture",
  hdri: "hdri",
  "3d-model": "model",
  terrain: "other",
};

/** Our types as ambientCG `type=` values (comma lists, as its own /list page uses). */
const UPSTREAM: Partial<Record<AssetType, string[]>> = {
  material: ["material", "substance"],
  texture: ["decal", "atlas"],
  hdri: ["hdri"],
  model: ["3d-model"],
};

const Download = z.looseObject({
  attributes: z.string(),
  extension: z.string(),
  url: z.string(),
  size: z.number().optional(),
});

const V3Asset = z.looseObject({
  id: z.string().min(1),
  type: z.string(),
  title: z.string(),
  url: z.string().optional(),
  tags: z.array(z.string()).optional(),
  shortDescription: z.string().nullish(),
  releaseDate: z.string().nullish(),
  thumbnails: z.record(z.string(), z.string()).nullish(),
  downloads: z.array(Download).nullish(),
});
type V3Asset = z.infer<typeof V3Asset>;

const V3Response = z.looseObject({ totalResults: z.number(), assets: z.array(z.unknown()) });

const pageUrl = (id: string) => `${SITE}/a/${encodeURIComponent(id)}`;
const getUrl = (filename: string) => `${SITE}/get?file=${encodeURIComponent(filename)}`;

/** The `type=` values for a query: undefined = no filter upstream; [] = nothing of this source fits. */
function upstreamTypes(types: readonly AssetType[]): string[] | undefined {
  if (types.length === 0 || types.includes("other")) return undefined;
  // In a fixed order, so one set of types always gives one URL.
  return [...new Set(Object.entries(UPSTREAM).flatMap(([t, values]) => (types.includes(t as AssetType) ? values : [])))];
}

function searchApiUrl(query: SourceQuery, types: string[] | undefined): string {
  const q = query.q.trim();
  const params = [
    ...(q ? [`q=${encodeURIComponent(q)}`] : []),
    ...(types?.length ? [`type=${types.join(",")}`] : []),
    `limit=${query.limit}`,
    `offset=${query.offset}`,
    `include=${INCLUDE}`,
  ];
  return `${API}?${params.join("&")}`;
}

/** "Day Sky HDRI 071 B" → "Day Sky HDRI"; "3D Apple 002" → "3D Apple": the words before the number. */
function categoryOf(title: string): string | undefined {
  const words = title.trim().split(/\s+/);
  const n = words.findIndex((w) => /^\d+$/.test(w));
  const name = (n < 0 ? [] : words.slice(0, n)).join(" ");
  return name || undefined;
}

/** The file name a download link names: `?file=` of a /get link, else the last path segment. */
function fileNameOf(d: z.infer<typeof Download>, assetId: string): string {
  try {
    const url = new URL(d.url);
    const name = url.searchParams.get("file") ?? decodeURIComponent(url.pathname.split("/").pop() ?? "");
    if (name) return name;
  } catch {
    // fall through to the documented naming scheme
  }
  return `${assetId}_${d.attributes}.${d.extension}`;
}

/** Formats inside an archive, from its attributes: `LQ-2K-PNG` → png; `2K` → none. */
function innerFormats(attributes: string): string[] {
  return attributes
    .split("-")
    .filter((t) => t && !/^\d+K$/i.test(t) && !/^[LSH]Q$/i.test(t))
    .map((t) => t.toLowerCase());
}

function toAsset(a: V3Asset): Asset {
  const downloads = a.downloads ?? [];
  const formats = [...new Set(downloads.flatMap((d) => [d.extension.toLowerCase(), ...innerFormats(d.attributes)]))];
  const resolutions = sortResolutions(downloads.flatMap((d) => kResolution(d.attributes) ?? []));
  const thumbnail = a.thumbnails?.["256-PNG"] ?? Object.values(a.thumbnails ?? {})[0];
  const category = categoryOf(a.title);
  const released = a.releaseDate && /^\d{4}-\d{2}-\d{2}/.test(a.releaseDate) ? new Date(`${a.releaseDate.slice(0, 10)}T00:00:00Z`) : undefined;
  return {
    id: `${ID}:${a.id}`,
    provider: ID,
    nativeId: a.id,
    title: a.title,
    ...(a.shortDescription?.trim() ? { description: a.shortDescription.trim() } : {}),
    type: TYPES[a.type] ?? "other",
    tags: a.tags ?? [],
    ...(category ? { categories: [category] } : {}),
    url: a.url && /^https?:\/\//.test(a.url) ? a.url : pageUrl(a.id),
    ...(thumbnail ? { thumbnailUrl: thumbnail } : {}),
    license: licenseById("CC0-1.0"),
    price: { free: true },
    ...(formats.length ? { formats } : {}),
    ...(resolutions.length ? { resolutions } : {}),
    downloadable: downloads.length > 0,
    ...(released && !Number.isNaN(released.getTime()) ? { createdAt: released.toISOString() } : {}),
  };
}

/** One file per download: an archive per resolution and format, through the site's /get link. */
function filesOf(a: V3Asset): AssetFile[] {
  return (a.downloads ?? []).map((d) => {
    const filename = fileNameOf(d, a.id);
    const resolution = kResolution(d.attributes);
    return {
      url: getUrl(filename),
      filename,
      format: d.extension.toLowerCase(),
      ...(resolution ? { resolution } : {}),
      ...(typeof d.size === "number" ? { sizeBytes: Math.round(d.size) } : {}),
      group: "archive",
    };
  });
}

async function fetchAssets(url: string, ctx: SourceContext): Promise<{ total: number; assets: V3Asset[] }> {
  const parsed = V3Response.safeParse(await fetchJson(NAME, url, ctx));
  if (!parsed.success) throw shapeError(NAME, url, "API v3 answer has no totalResults/assets");
  const assets = parsed.data.assets.flatMap((raw) => {
    const a = V3Asset.safeParse(raw);
    return a.success ? [a.data] : [];
  });
  if (parsed.data.assets.length > 0 && assets.length === 0) throw shapeError(NAME, url, "API v3 assets have an unexpected shape");
  return { total: parsed.data.totalResults, assets };
}

async function search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult> {
  const types = upstreamTypes(query.types);
  if (types && types.length === 0) return { assets: [], total: 0, searchUrl: searchUrl(query) };
  const { total, assets } = await fetchAssets(searchApiUrl(query, types), ctx);
  const wanted = typeFilter(query.types);
  const mapped = assets.map(toAsset);
  const kept = mapped.filter((a) => wanted(a.type)).slice(0, query.limit);
  // The upstream count only stands for what we return when no result had to be dropped here.
  const exact = kept.length === Math.min(mapped.length, query.limit);
  return { assets: kept, ...(exact ? { total } : {}), searchUrl: searchUrl(query) };
}

async function getAsset(nativeId: string, ctx: SourceContext): Promise<AssetDetails | null> {
  const url = `${API}?id=${encodeURIComponent(nativeId)}&include=${INCLUDE}`;
  const found = (await unlessGone(fetchAssets(url, ctx)))?.assets.find((a) => a.id === nativeId);
  return found ? { ...toAsset(found), files: filesOf(found) } : null;
}

/** What an asset is, from its download files alone (the CSV has no type column). */
function csvType(rows: Array<{ attribute: string; filetype: string }>): AssetType {
  if (rows.some((r) => /HDR|TONEMAPPED/i.test(r.attribute))) return "hdri";
  if (rows.some((r) => /^[LSH]Q-\d+K/i.test(r.attribute))) return "model";
  if (rows.some((r) => r.filetype === "obj")) return "other"; // terrains: heightmap + mesh
  return "material"; // PBR map archives and Substance files (decals and atlases cannot be told apart here)
}

/** "PavingStones014" → "Paving Stones"; "DaySkyHDRI071B" → "Day Sky HDRI"; "3DApple002" → "3D Apple". */
function csvCategory(assetId: string): string {
  const prefix = /^(.*?)\d+[A-Z]?$/.exec(assetId)?.[1] || assetId;
  return prefix.replace(/(?<=.)([A-Z])(?=[a-z])/g, " $1").replace(/([a-z])([A-Z])/g, "$1 $2").trim();
}

async function census(ctx: SourceContext): Promise<SourceCensus> {
  const { text } = await fetchText(CSV_URL, ctx);
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  const header = (lines.shift() ?? "").split(",").map((h) => h.trim());
  const col = (name: string) => header.indexOf(name);
  const [idCol, attrCol, typeCol] = [col("assetId"), col("downloadAttribute"), col("filetype")];
  if (idCol < 0 || attrCol < 0 || typeCol < 0) throw shapeError(NAME, CSV_URL, "downloads_csv has no assetId/downloadAttribute/filetype columns");

  const byAsset = new Map<string, Array<{ attribute: string; filetype: string }>>();
  for (const line of lines) {
    const cells = line.split(",");
    const id = cells[idCol]?.trim();
    if (!id) continue;
    const rows = byAsset.get(id) ?? [];
    rows.push({ attribute: cells[attrCol]?.trim() ?? "", filetype: (cells[typeCol] ?? "").trim().toLowerCase() });
    byAsset.set(id, rows);
  }
  if (byAsset.size === 0) throw shapeError(NAME, CSV_URL, "downloads_csv lists no assets");

  const byType: Record<string, number> = {};
  const categories: Record<string, number> = {};
  for (const [id, rows] of byAsset) {
    const type = csvType(rows);
    byType[type] = (byType[type] ?? 0) + 1;
    const category = csvCategory(id);
    categories[category] = (categories[category] ?? 0) + 1;
  }
  const total = byAsset.size;
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total,
    free: total,
    byType,
    byLicense: { "CC0-1.0": total },
    categories,
    unit: "assets",
    method:
      "ambientCG API v2 downloads_csv (one row per download file of every asset): distinct asset ids counted; type read from the files " +
      "(HDR/tonemapped → hdri, LQ/SQ/HQ levels of detail → model, meshes without them → other, the rest → material), category from the id",
    countedAt: ctx.now().toISOString(),
  };
}

/** The same search on ambientCG's own list page. */
function searchUrl(query: SourceQuery): string {
  const q = query.q.trim();
  const types = upstreamTypes(query.types);
  const params = [...(q ? [`q=${encodeURIComponent(q)}`] : []), ...(types?.length ? [`type=${types.join(",")}`] : [])];
  return `${SITE}/list${params.length ? `?${params.join("&")}` : ""}`;
}

export const ambientcg: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for CC0 PBR materials (plus HDRIs, decals and a few scanned models) with direct zip downloads per resolution.",
  assetTypes: ["material", "texture", "hdri", "model"],
  access: "api",
  pricing: "free",
  license: licenseById("CC0-1.0"),
  supportsDownload: true,
  mode: "live",
  unit: "assets",
  searchUrl,
  search,
  getAsset,
  census,
};
