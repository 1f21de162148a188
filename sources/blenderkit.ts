/**
 * BlenderKit (https://www.blenderkit.com): models, materials and HDRIs for Blender, free and paid
 * (a subscription plan). Live: searched through its public search API. Free assets download without
 * an account: the download API hands out a signed URL of the file, which is a plain GET; assets of a
 * plan need the key of a person who has it (`BLENDERKIT_API_KEY`, sent as a Bearer token).
 *
 * Upstream shapes used here:
 * - `/api/v1/search/?query=<words>+asset_type:<types>[+is_free:true]&page_size=N[&page=P]` →
 *   `{ count, next, results: Asset[] }`. An asset has `assetBaseId` (stable across versions; its page
 *   is `/asset-gallery-detail/<assetBaseId>/`), `assetType`, `license` (`royalty_free`, `cc_zero`),
 *   `isFree`, `canDownload` (for the caller) and `files: [{ fileType, uuid, filename, fileUploadSize }]`.
 * - `/api/v1/search/?query=asset_base_id:<id>` → the same list shape with that one asset (details).
 * - `/api/v1/downloads/<file uuid>/?scene_uuid=<uuid>` → `{ filePath }`: the signed file URL. The
 *   scene id only groups downloads of one Blender scene; this server sends one fixed id.
 */
import { z } from "zod";
import { fetchJson, unlessGone } from "./kit/fetch.ts";
import type { Source, SourceContext, SourceQuery, SourceSearchResult } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, AssetType, License, SourceCensus } from "../core/schemas/index.ts";
import { licenseById, normalizeLicense } from "../core/license.ts";
import { UpstreamError } from "../core/http/types.ts";
import { collectWindow, pageWindow } from "./kit/page-window.ts";

const SITE = "https://www.blenderkit.com";
const API = `${SITE}/api/v1`;
const ID = "blenderkit";
const NAME = "BlenderKit";
const KEY_ENV = "BLENDERKIT_API_KEY";
/** A fixed scene id for every download request (BlenderKit wants one; any UUID is accepted). */
export const SCENE_UUID = "5c0e7d2a-4b1f-4e8a-9c3d-a55e75ea2c40";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Largest page the search API serves. */
const MAX_PAGE_SIZE = 100;

/** BlenderKit's asset types we search, per contract type, in the order they are asked. */
const UPSTREAM_TYPES: Array<[AssetType, string[]]> = [
  ["model", ["model", "printable", "scene"]],
  ["material", ["material"]],
  ["hdri", ["hdr"]],
];
/** And back: BlenderKit's type → ours (brushes, add-ons and node groups are never asked for). */
const TYPE_OF: Record<string, AssetType> = { model: "model", printable: "model", scene: "model", material: "material", hdr: "hdri" };

const ROYALTY_FREE: License = { name: "BlenderKit Royalty Free License", url: `${SITE}/docs/licenses/` };

const File = z.looseObject({
  fileType: z.string(),
  uuid: z.string().regex(UUID),
  filename: z.string().nullish(),
  fileUploadSize: z.number().nullish(),
  isThumbnail: z.boolean().nullish(),
});
type File = z.infer<typeof File>;

const BkAsset = z.looseObject({
  id: z.string(),
  assetBaseId: z.string().regex(UUID),
  name: z.string(),
  displayName: z.string().nullish(),
  description: z.string().nullish(),
  assetType: z.string(),
  category: z.string().nullish(),
  isFree: z.boolean().nullish(),
  isForSale: z.boolean().nullish(),
  basePrice: z.number().nullish(),
  tags: z.array(z.string()).nullish(),
  license: z.string().nullish(),
  created: z.string().nullish(),
  author: z.looseObject({ fullName: z.string().nullish() }).nullish(),
  files: z.array(File).nullish(),
  dictParameters: z.looseObject({ faceCount: z.number().nullish(), rig: z.boolean().nullish(), animated: z.boolean().nullish() }).nullish(),
  canDownload: z.boolean().nullish(),
  thumbnailMiddleUrl: z.string().nullish(),
  thumbnailSmallUrl: z.string().nullish(),
});
type BkAsset = z.infer<typeof BkAsset>;

const SearchPage = z.looseObject({ count: z.number(), next: z.string().nullish(), results: z.array(z.unknown()) });
const Download = z.looseObject({ filePath: z.url() });

const assetPage = (baseId: string) => `${SITE}/asset-gallery-detail/${baseId}/`;

function authHeaders(ctx: SourceContext): Record<string, string> {
  const key = ctx.config.keys[KEY_ENV];
  return key ? { authorization: `Bearer ${key}` } : {};
}


/** Words and filters joined with `+`, each encoded as BlenderKit's own clients do (`asset_type%3Amodel%2Cscene`). */
function queryParam(terms: string[]): string {
  return terms
    .filter((t) => t.trim())
    .map((t) => encodeURIComponent(t.trim()).replace(/%20/g, "+"))
    .join("+");
}

/** BlenderKit types for the asked contract types (any type: all of ours); empty when none applies. */
export function upstreamTypes(types: AssetType[]): string[] {
  const wanted = new Set<AssetType>(types.length ? types : ["model", "material", "hdri"]);
  if (wanted.has("texture")) wanted.add("material");
  return UPSTREAM_TYPES.filter(([type]) => wanted.has(type)).flatMap(([, upstream]) => upstream);
}

export function searchApiUrl(q: string, types: string[], freeOnly: boolean, pageSize: number, page: number): string {
  const terms = [q, `asset_type:${types.join(",")}`, freeOnly ? "is_free:true" : ""];
  return `${API}/search/?query=${queryParam(terms)}&page_size=${pageSize}${page > 1 ? `&page=${page}` : ""}`;
}

function license(raw: string | null | undefined): License | undefined {
  if (!raw) return undefined;
  if (raw === "cc_zero") return licenseById("CC0-1.0");
  if (raw === "royalty_free") return { ...ROYALTY_FREE };
  return normalizeLicense(raw.replace(/_/g, " "));
}

const extension = (name: string | null | undefined) => /\.([a-z0-9]+)$/i.exec(name ?? "")?.[1]?.toLowerCase();
const basename = (name: string) => name.split("/").pop() ?? name;

/** `resolution_0_5K` → `0.5k`, `resolution_2K` → `2k`; other file types have none. */
function resolutionOf(fileType: string): string | undefined {
  const m = /^resolution_(\d+)(?:_(\d+))?K$/i.exec(fileType);
  if (!m) return undefined;
  return `${m[2] ? `${m[1]}.${m[2]}` : m[1]}k`;
}

/** The files worth listing: everything but the thumbnail. */
const payloads = (a: BkAsset): File[] => (a.files ?? []).filter((f) => !f.isThumbnail && f.fileType !== "thumbnail");

function toAsset(a: BkAsset): Asset {
  const type = TYPE_OF[a.assetType] ?? "other";
  const files = payloads(a);
  const formats = [...new Set(files.flatMap((f) => extension(f.filename) ?? []))];
  const resolutions = [...new Set(files.flatMap((f) => resolutionOf(f.fileType) ?? []))];
  const lic = license(a.license);
  const thumb = a.thumbnailMiddleUrl ?? a.thumbnailSmallUrl;
  const free = a.isFree === true;
  const description = a.description?.trim();
  const author = a.author?.fullName?.trim();
  const params = a.dictParameters;
  const created = a.created && !Number.isNaN(Date.parse(a.created)) ? new Date(a.created).toISOString() : undefined;
  return {
    id: `${ID}:${a.assetBaseId}`,
    provider: ID,
    nativeId: a.assetBaseId,
    title: a.displayName || a.name,
    ...(description ? { description } : {}),
    type,
    tags: a.tags ?? [],
    ...(a.category ? { categories: [a.category] } : {}),
    url: assetPage(a.assetBaseId),
    ...(thumb ? { thumbnailUrl: thumb } : {}),
    ...(author ? { author } : {}),
    ...(lic ? { license: lic } : {}),
    price: free ? { free } : { free, ...(a.isForSale && typeof a.basePrice === "number" ? { amount: a.basePrice, currency: "USD" } : {}) },
    ...(formats.length ? { formats } : {}),
    ...(resolutions.length ? { resolutions } : {}),
    ...(typeof params?.faceCount === "number" ? { polyCount: Math.round(params.faceCount) } : {}),
    ...(typeof params?.animated === "boolean" ? { animated: params.animated } : {}),
    ...(typeof params?.rig === "boolean" ? { rigged: params.rig } : {}),
    // canDownload is computed for the caller: anonymous (or the configured key's plan).
    downloadable: a.canDownload === true && files.length > 0,
    ...(created ? { createdAt: created } : {}),
  };
}

function parseSearch(body: unknown, url: string): { assets: BkAsset[]; count: number } {
  const page = SearchPage.safeParse(body);
  if (!page.success) throw new UpstreamError(`${ID}: search answer has no results array`, url, "parse");
  const assets = page.data.results.flatMap((r) => {
    const parsed = BkAsset.safeParse(r);
    return parsed.success ? [parsed.data] : [];
  });
  if (page.data.results.length && !assets.length) {
    throw new UpstreamError(`${ID}: no search result has the expected asset shape`, url, "parse");
  }
  return { assets, count: page.data.count };
}

async function search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult> {
  const types = upstreamTypes(query.types);
  if (!types.length) return { assets: [] };
  // Without a key only free assets download; with one, the plan decides (filtered below).
  const freeOnly = query.free || (query.downloadable && !ctx.config.keys[KEY_ENV]);
  const pageSize = Math.min(Math.max(1, query.limit), MAX_PAGE_SIZE);
  const window = pageWindow(query.offset, query.limit, pageSize);
  const { items, total } = await collectWindow(
    window,
    query.limit,
    pageSize,
    async (page) => {
      const url = searchApiUrl(query.q, types, freeOnly, pageSize, page);
      const { assets, count } = parseSearch(await fetchJson(ID, url, ctx, authHeaders(ctx)), url);
      return { items: assets, total: count };
    },
    ctx.signal,
  );
  const assets = items.map(toAsset).filter((a) => !query.downloadable || a.downloadable);
  return { assets, ...(total !== undefined ? { total } : {}), searchUrl: searchUrl(query) };
}

function isAuthFailure(err: unknown): boolean {
  return err instanceof UpstreamError && err.status !== undefined && [401, 402, 403].includes(err.status);
}

/** A file as a login/plan link to the asset's page. */
function pageFile(a: BkAsset, f: File): AssetFile {
  const base = fileBase(f);
  return { ...base, url: assetPage(a.assetBaseId), requiresAuth: true };
}

function fileBase(f: File): Omit<AssetFile, "url"> {
  const format = extension(f.filename) ?? "bin";
  const resolution = resolutionOf(f.fileType);
  const kind = f.fileType.toLowerCase();
  const group = format === "blend" ? "blend" : format === "hdr" || format === "exr" ? "hdri" : kind.startsWith("gltf") ? kind : format;
  return {
    filename: f.filename ? basename(f.filename) : `${f.uuid}.${format}`,
    format,
    ...(resolution ? { resolution } : {}),
    ...(typeof f.fileUploadSize === "number" ? { sizeBytes: Math.round(f.fileUploadSize) } : {}),
    group,
  };
}

/** The signed URL of one file, or a page link when the download API refuses the caller. */
async function resolveFile(a: BkAsset, f: File, ctx: SourceContext): Promise<AssetFile> {
  const url = `${API}/downloads/${f.uuid}/?scene_uuid=${SCENE_UUID}`;
  let body: unknown;
  try {
    body = await fetchJson(ID, url, ctx, authHeaders(ctx));
  } catch (err) {
    if (isAuthFailure(err)) return pageFile(a, f);
    throw err;
  }
  const parsed = Download.safeParse(body);
  if (!parsed.success || !/^https:\/\//.test(parsed.data.filePath)) {
    throw new UpstreamError(`${ID}: download answer of file ${f.uuid} has no filePath`, url, "parse");
  }
  return { url: parsed.data.filePath, ...fileBase(f) };
}

async function getAsset(baseId: string, ctx: SourceContext): Promise<AssetDetails | null> {
  if (!UUID.test(baseId)) return null;
  const url = `${API}/search/?query=asset_base_id:${baseId.toLowerCase()}`;
  const body = await unlessGone(fetchJson(ID, url, ctx, authHeaders(ctx)));
  if (body === undefined) return null;
  const { assets } = parseSearch(body, url);
  const a = assets.find((x) => x.assetBaseId.toLowerCase() === baseId.toLowerCase());
  if (!a) return null;
  const files = await Promise.all(
    payloads(a).map((f) => (a.canDownload === true ? resolveFile(a, f, ctx) : Promise.resolve(pageFile(a, f)))),
  );
  return { ...toAsset(a), downloadable: files.some((f) => !f.requiresAuth), files };
}

/** Counts from the search API's `count`: one request per type and one for the free assets. */
async function census(ctx: SourceContext): Promise<SourceCensus> {
  const count = async (types: string[], freeOnly: boolean) => {
    const url = searchApiUrl("", types, freeOnly, 1, 1);
    return parseSearch(await fetchJson(ID, url, ctx, authHeaders(ctx)), url).count;
  };
  const perType = await Promise.all(UPSTREAM_TYPES.map(async ([type, upstream]) => [type, await count(upstream, false)] as const));
  const free = await count(UPSTREAM_TYPES.flatMap(([, upstream]) => upstream), true);
  const byType = Object.fromEntries(perType);
  const total = perType.reduce((sum, [, n]) => sum + n, 0);
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total,
    free,
    byType,
    unit: "assets",
    method:
      "BlenderKit search API: the count of an empty search per asset type (models with printables and scenes, materials, HDRIs) and of the free ones",
    countedAt: ctx.now().toISOString(),
  };
}

/** The site's asset gallery, with the same query words and filters. */
function searchUrl(query: SourceQuery): string {
  const types = upstreamTypes(query.types);
  const terms = [query.q, types.length ? `asset_type:${types.join(",")}` : "", query.free ? "is_free:true" : ""];
  return `${SITE}/asset-gallery?query=${queryParam(terms)}`;
}

export const blenderkit: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for Blender-ready models, materials and HDRIs: free ones download directly, plan assets with a key.",
  assetTypes: ["model", "material", "hdri"],
  access: "api",
  pricing: "freemium",
  supportsDownload: true,
  mode: "live",
  key: { env: KEY_ENV, required: false },
  unit: "assets",
  searchUrl,
  search,
  getAsset,
  census,
};
