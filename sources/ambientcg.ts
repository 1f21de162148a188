/**
 * ambientCG (https://ambientcg.com): CC0 PBR materials, HDRIs, 3D models, decals and atlases, with
 * a public JSON API. Live: searched through API v3 at search time.
 *
 * Why live and not indexed: the only whole-catalogue listing we know, v2 `downloads_csv` (one row per
 * download file: no titles, tags, types or dates), can count the catalogue but not search it.
 *
 * Downloads go through the site's own `/get?file=<name>` links, which log the download for its statistics, as the site asks.
 */
import { z } from "zod";
import { licenseById } from "../core/model/license.ts";
import { type AssetDetails, type AssetFile, type AssetType, assetMaker, compact, round } from "./kit/asset.ts";
import { countBy } from "./kit/census.ts";
import { isoDay } from "./kit/dates.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { expectShape, type SourceIo, shapeError, unlessGone } from "./kit/fetch.ts";
import { fileNameOf } from "./kit/files.ts";
import { LICENSE_TERMS, type Sort } from "./kit/filters.ts";
import { parseList } from "./kit/list.ts";
import { cc0Site, kResolution, sortResolutions, typeFilter } from "./kit/texture-sites.ts";
import { isHttpUrl } from "./kit/url.ts";

const ID = "ambientcg";
const SITE = "https://ambientcg.com";
const DESCRIPTION = "Best for CC0 PBR materials (plus HDRIs, decals and a few scanned models) with direct zip downloads per resolution.";
const API = `${SITE}/api/v3/assets`;
const CSV_URL = `${SITE}/api/v2/downloads_csv`;
/** Every field a result and its files need, in one request. */
const INCLUDE = "type,title,url,tags,shortDescription,releaseDate,maps,technique,downloadStatistics,thumbnails,downloads";
const asset = assetMaker(ID);

/** ambientCG's asset types and ours. Asked types go upstream as `type=` lists of theirs in this order, so one set gives one URL. */
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
const V3Asset = z
  .looseObject({ id: z.string().min(1), type: z.string(), title: z.string(), url: z.string().optional(), tags: z.array(z.string()).optional() })
  .extend({ shortDescription: z.string().nullish(), releaseDate: z.string().nullish(), thumbnails: z.record(z.string(), z.string()).nullish() })
  .extend({ downloads: z.array(Download).nullish(), downloadStatistics: z.looseObject({ total: z.number().int().min(0).optional() }).nullish() });
const V3Response = z.looseObject({ totalResults: z.number(), assets: z.array(z.unknown()) });

/**
 * The API's `sort=` for our data sorts: `latest` (newest releases first) and `popular`, values real v3 clients pass (the v2
 * documentation lists the same orders for its list syntax). Other sorts keep the API's own order.
 */
const SORTS: Partial<Record<Sort, string>> = { newest: "latest", popular: "popular" };

/** The `type=` values for a query: undefined = no filter upstream; [] = nothing of this source fits. */
function upstreamTypes(types: readonly AssetType[]): string[] | undefined {
  return types.length === 0 || types.includes("other") ? undefined : Object.keys(TYPES).filter((t) => types.includes(TYPES[t]!));
}

/** `q` and `type` of a query, as the API and the list page both take them. */
function filterParams(query: SourceQuery): string {
  const q = query.q.trim();
  const types = upstreamTypes(query.types);
  return [...(q ? [`q=${encodeURIComponent(q)}`] : []), ...(types?.length ? [`type=${types.join(",")}`] : [])].join("&");
}

/** "Day Sky HDRI 071 B" → ["Day Sky HDRI"]; "3D Apple 002" → ["3D Apple"]: the words before the number. */
function categoriesOf(title: string): string[] {
  const words = title.trim().split(/\s+/);
  const end = words.findIndex((w) => /^\d+$/.test(w));
  return end > 0 ? [words.slice(0, end).join(" ")] : [];
}

/** One download through the site's /get link, named as its link names it (`?file=` of a /get link, else the last path segment). */
function fileOf(d: z.infer<typeof Download>, assetId: string): AssetFile {
  const link = URL.canParse(d.url) ? new URL(d.url) : undefined;
  const named = link && (link.searchParams.get("file") ?? fileNameOf(link));
  const filename = named || `${assetId}_${d.attributes}.${d.extension}`; // the documented naming scheme
  const url = `${SITE}/get?file=${encodeURIComponent(filename)}`;
  const resolution = kResolution(d.attributes);
  return compact({ url, filename, format: d.extension.toLowerCase(), resolution, sizeBytes: round(d.size), group: "archive" });
}

/** Formats inside an archive, from its attributes: `LQ-2K-PNG` → png; `2K` → none. */
const innerFormats = (attributes: string) => attributes.split("-").flatMap((t) => (t && !/^(\d+K|[LSH]Q)$/i.test(t) ? [t.toLowerCase()] : []));

function toAsset(a: z.infer<typeof V3Asset>) {
  const downloads = a.downloads ?? [];
  return asset(a.id, {
    title: a.title,
    description: a.shortDescription?.trim(),
    type: TYPES[a.type] ?? "other",
    tags: a.tags,
    categories: categoriesOf(a.title),
    url: isHttpUrl(a.url) ? a.url : `${SITE}/a/${encodeURIComponent(a.id)}`,
    thumbnailUrl: a.thumbnails?.["256-PNG"] ?? Object.values(a.thumbnails ?? {})[0],
    license: licenseById("CC0-1.0"),
    price: { free: true },
    formats: [...new Set(downloads.flatMap((d) => [d.extension.toLowerCase(), ...innerFormats(d.attributes)]))],
    resolutions: sortResolutions(downloads.flatMap((d) => kResolution(d.attributes) ?? [])),
    downloadable: downloads.length > 0,
    createdAt: isoDay(a.releaseDate),
    downloads: a.downloadStatistics?.total,
  });
}

async function fetchAssets(url: string, io: SourceIo) {
  const body = expectShape(ID, url, V3Response, await io.json(url), "API v3 answer has no totalResults/assets");
  return { total: body.totalResults, assets: parseList(ID, url, V3Asset, body.assets).items };
}

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  if (upstreamTypes(query.types)?.length === 0) return { assets: [], total: 0, searchUrl: searchUrl(query) };
  const sort = SORTS[query.sort];
  const url = `${API}?${[filterParams(query), sort && `sort=${sort}`, `limit=${query.limit}`, `offset=${query.offset}`, `include=${INCLUDE}`].filter(Boolean).join("&")}`;
  const { total, assets } = await fetchAssets(url, io);
  const kept = assets
    .map(toAsset)
    .filter((a) => typeFilter(query.types)(a.type))
    .slice(0, query.limit);
  // The upstream count only stands for what we return when no result had to be dropped here.
  const exact = kept.length === Math.min(assets.length, query.limit);
  return { assets: kept, total: exact ? total : undefined, searchUrl: searchUrl(query) };
}

/** One file per download: an archive per resolution and format. */
async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  const answer = await unlessGone(fetchAssets(`${API}?id=${encodeURIComponent(nativeId)}&include=${INCLUDE}`, io));
  const found = answer?.assets.find((a) => a.id === nativeId);
  return found ? { ...toAsset(found), files: (found.downloads ?? []).map((d) => fileOf(d, found.id)) } : null;
}

type CsvRow = { id: string; attribute: string; filetype: string };

/** What an asset is, from its download files alone (the CSV has no type column). */
function csvType(rows: CsvRow[]): AssetType {
  if (rows.some((r) => /HDR|TONEMAPPED/i.test(r.attribute))) return "hdri";
  if (rows.some((r) => /^[LSH]Q-\d+K/i.test(r.attribute))) return "model";
  if (rows.some((r) => r.filetype === "obj")) return "other"; // terrains: heightmap + mesh
  return "material"; // PBR map archives and Substance files (decals and atlases cannot be told apart here)
}

/** "PavingStones014" → "Paving Stones"; "DaySkyHDRI071B" → "Day Sky HDRI"; "3DApple002" → "3D Apple". */
function csvCategory(assetId: string): string {
  const prefix = /^(.*?)\d+[A-Z]?$/.exec(assetId)?.[1] || assetId;
  return prefix.replace(/(?<=.)(?=[A-Z][a-z])|(?<=[a-z])(?=[A-Z])/g, " ").trim();
}

async function census(io: SourceIo): Promise<CensusBody> {
  const [head = "", ...lines] = (await io.text(CSV_URL)).text.split(/\r?\n/).filter((l) => l.trim());
  const header = head.split(",").map((h) => h.trim());
  const [idCol, attrCol, typeCol] = [header.indexOf("assetId"), header.indexOf("downloadAttribute"), header.indexOf("filetype")] as const;
  if (idCol < 0 || attrCol < 0 || typeCol < 0) throw shapeError(ID, CSV_URL, "downloads_csv has no assetId/downloadAttribute/filetype columns");
  const byAsset = new Map<string, CsvRow[]>();
  for (const cells of lines.map((line) => line.split(","))) {
    const row = { id: cells[idCol]?.trim() ?? "", attribute: cells[attrCol]?.trim() ?? "", filetype: (cells[typeCol] ?? "").trim().toLowerCase() };
    if (row.id) byAsset.set(row.id, [...(byAsset.get(row.id) ?? []), row]);
  }
  if (byAsset.size === 0) throw shapeError(ID, CSV_URL, "downloads_csv lists no assets");
  const total = byAsset.size;
  return {
    total,
    free: total,
    byType: countBy(byAsset, ([, rows]) => csvType(rows)),
    categories: countBy(byAsset, ([id]) => csvCategory(id)),
    method:
      "ambientCG API v2 downloads_csv (one row per download file of every asset): distinct asset ids counted; type read from the files " +
      "(HDR/tonemapped → hdri, LQ/SQ/HQ levels of detail → model, meshes without them → other, the rest → material), category from the id",
  };
}

/** The same search on ambientCG's own list page. */
const searchUrl = (query: SourceQuery) => [`${SITE}/list`, filterParams(query)].filter(Boolean).join("?");

export const ambientcg = defineSource(
  {
    ...cc0Site(ID, "ambientCG", SITE),
    description: DESCRIPTION,
    assetTypes: ["material", "texture", "hdri", "model"],
    access: "api",
    supportsDownload: true,
    // Every asset is CC0; categories come from titles, formats and resolutions from the download list, dates and counts from the API.
    filtering: { upstream: ["newest", "popular"], listed: [...LICENSE_TERMS, "category", "format", "resolution", "newest", "popular"] },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
