/**
 * Textures.com (https://www.textures.com): a very large library of photo textures, scanned PBR sets, HDRIs and some 3D objects, downloaded
 * with credits (a free account gets a few; free samples exist): nothing is a direct download. Live: `/api/v1/texture/search?q=<q>` →
 * `{ success, data }`, one texture of a photo set per item, no total. The recorded query string is unknown: `filter=free` and `page=<p>`
 * are what public scrapers of this endpoint use. No detail and no count were recorded: no getAsset, no census.
 */
import { z } from "zod";
import { type AssetType, assetMaker } from "./kit/asset.ts";
import { defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import type { SourceIo } from "./kit/fetch.ts";
import { leadingPages, pageWindow } from "./kit/page-window.ts";
import { pixelsToK, typeFilter } from "./kit/texture-sites.ts";

const ID = "texturescom";
const SITE = "https://www.textures.com";
const API = `${SITE}/api/v1/texture/search`;
const MAX_EXTRA_PAGES = 3; // at most, for one search: a deep offset costs one request per page
const asset = assetMaker(ID);

const [text, count, flag] = [z.string().nullish(), z.number().nullish(), z.boolean().nullish()];
const contentFlags = { isSeamless: flag, contentTypeAi: flag, contentTypeScan: flag, contentTypeSubstance: flag, hasFreeSample: flag };
const PhotoSet = z.looseObject({ id: z.number(), slug: z.looseObject({ title: text }).nullish(), titleThumbnail: text, holderName: text, ...contentFlags });
const Item = z
  .looseObject({ id: z.number(), name: text, filenameWithoutSet: text, width: count, height: count, picture: text, createdAtUtc: text })
  .extend({ rootCategoryId: count, defaultPhotoSet: PhotoSet });
type Item = z.infer<typeof Item>;
const Body = z.looseObject({ success: z.literal(true).optional(), data: z.array(Item) }); // `success: false` is a failed answer

/** The library section (1) and sub-category (3) of a picture path: `/system/gallery/photos/<Section>/<id>-<Sub-Name>/…`. */
const SECTIONS = /^\/system\/gallery\/photos\/([^/]+)\/(\d+-)?([^/]+)\//;
/** Library sections by root category id, as seen in the recording (HDR Environments, 3D Foliage). */
const TYPE_BY_ROOT: Record<number, AssetType> = { 114552: "hdri", 114570: "model" };

/** HDR sections are HDRIs, 3D sections models, Substance sets materials; the rest are textures (map sets or photos). */
export function typeOf(item: Item): AssetType {
  const section = SECTIONS.exec(item.picture ?? "")?.[1] ?? "";
  if (/^hdr/i.test(section) || /^HDR/.test(item.name ?? "")) return "hdri";
  if (/^3d\b/i.test(section) && !item.defaultPhotoSet.contentTypeScan) return "model";
  return (item.rootCategoryId ? TYPE_BY_ROOT[item.rootCategoryId] : undefined) ?? (item.defaultPhotoSet.contentTypeSubstance ? "material" : "texture");
}

const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

function toAsset(item: Item, freeQuery: boolean) {
  const set = item.defaultPhotoSet;
  const slug = clean(set.slug?.title) || clean(item.filenameWithoutSet) || String(set.id);
  const title = clean(set.titleThumbnail) || clean(set.holderName) || clean(item.name) || slug;
  const sections = SECTIONS.exec(item.picture ?? "");
  const k = pixelsToK(Math.max(item.width ?? 0, item.height ?? 0));
  const flags = { seamless: set.isSeamless, scanned: set.contentTypeScan, substance: set.contentTypeSubstance, "ai-generated": set.contentTypeAi };
  return asset(String(set.id), {
    title,
    description: clean(set.holderName) === title ? undefined : clean(set.holderName),
    type: typeOf(item),
    tags: Object.entries(flags).flatMap(([tag, on]) => (on ? [tag] : [])),
    categories: sections ? [sections[1]!, sections[3]!.replace(/-/g, " ")] : undefined,
    url: `${SITE}/download/${encodeURIComponent(slug)}/${set.id}`,
    thumbnailUrl: item.picture ? encodeURI(`${SITE}${item.picture}`) : undefined,
    // A free sample (or an answer to the free filter) is free with a free account; the rest costs credits.
    price: { free: freeQuery || set.hasFreeSample === true },
    resolutions: k && [k],
    downloadable: false,
    createdAt: item.createdAtUtc,
  });
}

export const searchApiUrl = (q: string, page: number, free: boolean) =>
  `${API}?q=${encodeURIComponent(q.trim())}${free ? "&filter=free" : ""}${page > 1 ? `&page=${page}` : ""}`;

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  if ((query.types.length && !query.types.some((t) => texturescom.assetTypes.includes(t))) || query.downloadable) return { assets: [], total: 0 };
  const fetchPage = async (page: number) => (await io.get(searchApiUrl(query.q, page, query.free), Body)).data;
  // Page 1 tells the site's page size. From offset 0 it is enough; a later offset reads the pages that hold the window.
  const first = await fetchPage(1);
  const { pages, skip } = query.offset > 0 && first.length > 0 ? pageWindow(query.offset, query.limit, first.length) : { pages: [1], skip: query.offset };
  const fetches = pages.slice(0, MAX_EXTRA_PAGES + 1).map((p) => (p === 1 ? Promise.resolve(first) : fetchPage(p)));
  const items = (await leadingPages(fetches, io.signal)).flat().slice(skip, skip + query.limit);
  return { assets: items.map((item) => toAsset(item, query.free)).filter((a) => typeFilter(query.types)(a.type)), searchUrl: searchUrl(query) };
}

const searchUrl = (query: SourceQuery) => `${SITE}/search?q=${encodeURIComponent(query.q.trim())}`;

export const texturescom = defineSource(
  {
    id: ID,
    name: "Textures.com",
    homepage: SITE,
    description: "Best for a huge range of photo textures, scanned PBR sets and HDRIs, downloaded with site credits.",
    assetTypes: ["texture", "material", "hdri", "model"],
    access: "api",
    pricing: "freemium",
    supportsDownload: false,
    unit: "assets",
    // Results carry categories (from the picture path), the image size and the creation date; no licence (the site's own, credits).
    filtering: { upstream: [], listed: ["category", "resolution", "newest"] },
  },
  { mode: "live", searchUrl, search },
);
