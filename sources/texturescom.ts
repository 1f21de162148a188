/**
 * Textures.com (https://www.textures.com): a very large library of photo textures, scanned PBR sets,
 * HDRIs and some 3D objects, downloaded with credits (a free account gets a few; free samples exist).
 * Live: its site's JSON search API.
 *
 * Upstream shapes used here:
 * - `/api/v1/texture/search?q=<q>[&filter=free][&page=<p>]` → `{ success, data: [...] }` with no total.
 *   Each item is one texture of a photo set: `id`, `name`, `filenameWithoutSet`, `width`/`height`,
 *   `picture` (a site path with spaces, e.g. `/system/gallery/photos/HDR Environments/…`, whose first
 *   folder is the library section), `createdAtUtc`, and `defaultPhotoSet` (`id` — the download page's
 *   id —, `slug.title`, `titleThumbnail`, `holderName`, `isSeamless`, `contentTypeScan`,
 *   `contentTypeSubstance`, `contentTypeAi`, `hasFreeSample`).
 *   The exact recorded query string is unknown (SOURCES.md); `filter=free` and `page=` are the
 *   parameters public scrapers of this endpoint use. The page size is not ours to choose: it is
 *   learnt from page 1. A search from offset 0 reads page 1 only (at most `limit` of it); a later
 *   offset reads page 1 for its size, then the pages that hold the offset (a few at most).
 * - Asset pages are `/download/<slug>/<photoSetId>`. No detail API or page was recorded, so this
 *   source has no `getAsset`; downloads need an account and credits, so it lists no files anyway.
 *   The API gives no count either, so there is no census.
 */
import { z } from "zod";
import type { Source, SourceContext, SourceQuery, SourceSearchResult } from "../core/source.ts";
import type { Asset, AssetType } from "../core/schemas/index.ts";
import { leadingPages } from "./kit/page-window.ts";

const ID = "texturescom";
const NAME = "Textures.com";
const SITE = "https://www.textures.com";
const API = `${SITE}/api/v1/texture/search`;
/** At most this many extra pages for one search (deep offsets cost one request per page). */
const MAX_EXTRA_PAGES = 3;

const PhotoSet = z.looseObject({
  id: z.number(),
  slug: z.looseObject({ title: z.string().nullish() }).nullish(),
  titleThumbnail: z.string().nullish(),
  holderName: z.string().nullish(),
  isSeamless: z.boolean().nullish(),
  contentTypeAi: z.boolean().nullish(),
  contentTypeScan: z.boolean().nullish(),
  contentTypeSubstance: z.boolean().nullish(),
  hasFreeSample: z.boolean().nullish(),
});

const Item = z.looseObject({
  id: z.number(),
  name: z.string().nullish(),
  filenameWithoutSet: z.string().nullish(),
  width: z.number().nullish(),
  height: z.number().nullish(),
  picture: z.string().nullish(),
  createdAtUtc: z.string().nullish(),
  rootCategoryId: z.number().nullish(),
  defaultPhotoSet: PhotoSet,
});
type Item = z.infer<typeof Item>;

const Body = z.looseObject({ success: z.boolean().optional(), data: z.array(z.unknown()) });

/** Library sections by root category id, as seen in the recording (HDR Environments, 3D Foliage). */
const TYPE_BY_ROOT: Record<number, AssetType> = { 114552: "hdri", 114570: "model" };

/** The library section and sub-category of a picture path: `/system/gallery/photos/<Section>/<id>-<Sub-Name>/…`. */
function sectionsOf(picture: string | null | undefined): { section?: string; sub?: string } {
  const m = /^\/system\/gallery\/photos\/([^/]+)\/(\d+-)?([^/]+)\//.exec(picture ?? "");
  if (!m) return {};
  return { section: m[1]!, sub: m[3]!.replace(/-/g, " ") };
}

/** HDR sections are HDRIs, 3D sections models, Substance sets materials; the rest are textures (map sets or photos). */
export function typeOf(item: Item): AssetType {
  const { section = "" } = sectionsOf(item.picture);
  if (/^hdr/i.test(section) || /^HDR/.test(item.name ?? "")) return "hdri";
  if (/^3d\b/i.test(section) && !item.defaultPhotoSet.contentTypeScan) return "model";
  const byRoot = item.rootCategoryId ? TYPE_BY_ROOT[item.rootCategoryId] : undefined;
  if (byRoot) return byRoot;
  if (item.defaultPhotoSet.contentTypeSubstance) return "material";
  return "texture";
}

const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

function toAsset(item: Item, freeQuery: boolean): Asset {
  const set = item.defaultPhotoSet;
  const nativeId = String(set.id);
  const slug = clean(set.slug?.title) || clean(item.filenameWithoutSet) || nativeId;
  const { section, sub } = sectionsOf(item.picture);
  const title = clean(set.titleThumbnail) || clean(set.holderName) || clean(item.name) || slug;
  const description = clean(set.holderName);
  const longest = Math.max(item.width ?? 0, item.height ?? 0);
  const k = Math.round(longest / 1024);
  const tags = [
    ...(set.isSeamless ? ["seamless"] : []),
    ...(set.contentTypeScan ? ["scanned"] : []),
    ...(set.contentTypeSubstance ? ["substance"] : []),
    ...(set.contentTypeAi ? ["ai-generated"] : []),
  ];
  return {
    id: `${ID}:${nativeId}`,
    provider: ID,
    nativeId,
    title,
    ...(description && description !== title ? { description } : {}),
    type: typeOf(item),
    tags,
    categories: [section, sub].filter((c): c is string => Boolean(c)),
    url: `${SITE}/download/${encodeURIComponent(slug)}/${set.id}`,
    ...(item.picture ? { thumbnailUrl: encodeURI(`${SITE}${item.picture}`) } : {}),
    // A free sample (or an answer to the free filter) is free with a free account; the rest costs credits.
    price: { free: freeQuery || set.hasFreeSample === true },
    ...(k >= 1 ? { resolutions: [`${k}k`] } : {}),
    downloadable: false,
    ...(item.createdAtUtc ? { createdAt: item.createdAtUtc } : {}),
  };
}

export function searchApiUrl(q: string, page: number, free: boolean): string {
  return `${API}?q=${encodeURIComponent(q.trim())}${free ? "&filter=free" : ""}${page > 1 ? `&page=${page}` : ""}`;
}

async function fetchPage(q: string, page: number, free: boolean, ctx: SourceContext): Promise<Item[]> {
  const url = searchApiUrl(q, page, free);
  const body = Body.safeParse(await ctx.http.getJson(url, { signal: ctx.signal }));
  if (!body.success || body.data.success === false) throw new Error(`texturescom: search JSON of ${url} has no data array`);
  return body.data.data.map((raw) => {
    const item = Item.safeParse(raw);
    if (!item.success) throw new Error(`texturescom: an item of ${url} has no id or photo set`);
    return item.data;
  });
}

const TYPES: AssetType[] = ["texture", "material", "hdri", "model"];

async function search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult> {
  if (query.types.length && !query.types.some((t) => TYPES.includes(t))) return { assets: [], total: 0 };
  // Nothing here is a direct download.
  if (query.downloadable) return { assets: [], total: 0 };
  const first = await fetchPage(query.q, 1, query.free, ctx);
  const pageSize = first.length;
  let items = first;
  let skip = query.offset;
  const want = query.offset + query.limit;
  // From offset 0 one page is enough (its size is the site's, not ours); later offsets page on.
  if (query.offset > 0 && pageSize > 0 && want > pageSize) {
    const firstPage = Math.floor(query.offset / pageSize) + 1;
    const lastPage = Math.min(Math.floor((want - 1) / pageSize) + 1, firstPage + MAX_EXTRA_PAGES);
    const fetches: Promise<Item[]>[] = [];
    for (let p = firstPage; p <= lastPage; p++) fetches.push(p === 1 ? Promise.resolve(first) : fetchPage(query.q, p, query.free, ctx));
    // A later page that fails ends the window there: the pages before it still stand.
    items = (await leadingPages(fetches, ctx.signal)).flat();
    skip = query.offset - (firstPage - 1) * pageSize;
  }
  let assets = items.slice(skip, skip + query.limit).map((item) => toAsset(item, query.free));
  if (query.types.length) assets = assets.filter((a) => query.types.includes(a.type));
  return { assets, searchUrl: searchUrl(query) };
}

/** The site's own search page. */
function searchUrl(query: SourceQuery): string {
  return `${SITE}/search?q=${encodeURIComponent(query.q.trim())}`;
}

export const texturescom: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for a huge range of photo textures, scanned PBR sets and HDRIs, downloaded with site credits.",
  assetTypes: ["texture", "material", "hdri", "model"],
  access: "api",
  pricing: "freemium",
  supportsDownload: false,
  mode: "live",
  unit: "assets",
  searchUrl,
  search,
};
