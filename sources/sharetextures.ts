/**
 * ShareTextures (https://www.sharetextures.com): CC0 PBR textures, atlases and scanned models.
 * Live: searched through the JSON API behind the site (api2.sharetextures.com), by tag.
 *
 * Upstream shapes used here:
 * - `GET /api/v0/for-frontend/items?tag=<slug>&sortBy=most_download&page=<n>&perPage=<n>` →
 *   `{ success, data: { items: [...], pagination: { totalCount, totalPage, … }, facets: { tags: [{ slug, count }] } } }`.
 *   The site's search is by tag slug, so the query text becomes one (`brick wall` → `brick-wall`).
 *   A tag that does not exist is not applied upstream; such a search is recognised by the tag being
 *   absent from `facets.tags` and answers nothing.
 * - `GET /api/v0/for-frontend/item/<slug>` → `{ success, data: { …, tags, authors, downloadLinks,
 *   text1Licence, text1Resolution } }`.
 *
 * ShareTextures' terms forbid automated downloads: assets are never `downloadable` and their file
 * list is empty; people download on the asset page (`url`).
 */
import { z } from "zod";
import type { Source, SourceContext, SourceQuery, SourceSearchResult } from "../core/source.ts";
import type { Asset, AssetDetails, AssetType, SourceCensus } from "../core/schemas/index.ts";
import { licenseById, normalizeLicense } from "../core/license.ts";
import { fetchJson, shapeError, unlessGone } from "./kit/fetch.ts";
import { pageWindow } from "./kit/page-window.ts";
import { kResolution, sortResolutions, typeFilter } from "./kit/texture-sites.ts";
import { leadingPages } from "./kit/page-window.ts";

const ID = "sharetextures";
const NAME = "ShareTextures";
const SITE = "https://www.sharetextures.com";
const API = "https://api2.sharetextures.com/api/v0/for-frontend";
const IMAGES = "https://images.sharetextures.com";
/** Items per census listing: the most downloaded ones become highlights. */
const CENSUS_PER_PAGE = 3;

/** ShareTextures' item types (`itemType.slug`) and ours. */
const TYPES: Record<string, AssetType> = {
  textures: "texture",
  atlases: "texture",
  models: "model",
  products: "pack",
};

const Ref = z.looseObject({ name: z.string().optional(), slug: z.string() });
const Image = z.looseObject({ originalObjectKey: z.string().nullish(), thumbObjectKey: z.string().nullish() });
const Item = z.looseObject({
  title: z.string().min(1),
  slug: z.string().min(1),
  itemType: Ref.nullish(),
  category: Ref.nullish(),
  publishDate: z.string().nullish(),
  downloadCount: z.number().nullish(),
  previewImage1: Image.nullish(),
  tagDetails: z.array(z.looseObject({ name: z.string().optional(), slug: z.string() })).nullish(),
  isEarlyAccess: z.boolean().nullish(),
});
type Item = z.infer<typeof Item>;

const Detail = Item.extend({
  tags: z.array(z.looseObject({ text: z.string().optional(), slug: z.string() })).nullish(),
  description: z.string().nullish(),
  metaDescription: z.string().nullish(),
  authors: z
    .array(z.looseObject({ author: z.looseObject({ name: z.looseObject({ firstName: z.string().nullish(), lastName: z.string().nullish() }).nullish(), username: z.string().nullish() }).nullish() }))
    .nullish(),
  downloadLinks: z.array(z.looseObject({ title: z.string().nullish(), value: z.string().nullish() })).nullish(),
  text1Licence: z.string().nullish(),
  text1Resolution: z.number().nullish(),
});
type Detail = z.infer<typeof Detail>;

const Listing = z.looseObject({
  success: z.boolean().optional(),
  data: z.looseObject({
    items: z.array(z.unknown()),
    pagination: z.looseObject({ totalCount: z.number().optional() }).nullish(),
    facets: z.looseObject({ tags: z.array(z.looseObject({ slug: z.string().nullish() })).nullish() }).nullish(),
  }),
});

/** The query as ShareTextures' tag slug: lower case, words joined by "-". */
export function tagOf(q: string): string {
  return q
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}

export function itemsUrl(tag: string, page: number, perPage: number): string {
  return `${API}/items?${tag ? `tag=${encodeURIComponent(tag)}&` : ""}sortBy=most_download&page=${page}&perPage=${perPage}`;
}

const itemUrl = (slug: string) => `${API}/item/${encodeURIComponent(slug)}`;

function pageUrl(item: Item): string {
  const type = item.itemType?.slug ?? "textures";
  const parts = [type, ...(item.category?.slug ? [item.category.slug] : []), item.slug].map(encodeURIComponent);
  return `${SITE}/${parts.join("/")}`;
}

function toAsset(item: Item, detail?: Detail): Asset {
  const typeSlug = item.itemType?.slug ?? "";
  const image = item.previewImage1?.thumbObjectKey || item.previewImage1?.originalObjectKey;
  const tags = detail?.tags?.length
    ? detail.tags.map((t) => t.text ?? t.slug)
    : (item.tagDetails ?? []).map((t) => t.name ?? t.slug);
  const authors = (detail?.authors ?? [])
    .map((a) => {
      const name = [a.author?.name?.firstName, a.author?.name?.lastName].filter(Boolean).join(" ").trim();
      return name || a.author?.username || "";
    })
    .filter(Boolean);
  const description = detail?.description?.trim() || detail?.metaDescription?.trim();
  const links = (detail?.downloadLinks ?? []).filter((l) => l.value);
  const resolutions = sortResolutions(links.flatMap((l) => kResolution(l.title ?? "") ?? []));
  const license = (detail?.text1Licence && normalizeLicense(detail.text1Licence)) || licenseById("CC0-1.0");
  return {
    id: `${ID}:${item.slug}`,
    provider: ID,
    nativeId: item.slug,
    title: item.title,
    ...(description ? { description } : {}),
    type: TYPES[typeSlug] ?? "other",
    tags: [...new Set(tags)],
    ...(item.category?.name ? { categories: [item.category.name] } : {}),
    url: pageUrl(item),
    ...(image ? { thumbnailUrl: `${IMAGES}/${image.split("/").map(encodeURIComponent).join("/")}` } : {}),
    ...(authors.length ? { author: authors.join(", ") } : {}),
    license,
    // Early-access items are for Patreon supporters until released; "products" are the paid shop.
    price: { free: !item.isEarlyAccess && typeSlug !== "products" },
    ...(links.some((l) => /\.zip(\?|$)/i.test(l.value ?? "")) ? { formats: ["zip"] } : {}),
    ...(resolutions.length ? { resolutions } : {}),
    downloadable: false,
    ...(item.publishDate ? { createdAt: item.publishDate } : {}),
  };
}

async function listing(url: string, ctx: SourceContext) {
  const parsed = Listing.safeParse(await fetchJson(NAME, url, ctx));
  if (!parsed.success || parsed.data.success === false) throw shapeError(NAME, url, "listing JSON has no data.items array");
  const items = parsed.data.data.items.flatMap((raw) => {
    const item = Item.safeParse(raw);
    return item.success ? [item.data] : [];
  });
  if (parsed.data.data.items.length > 0 && items.length === 0) throw shapeError(NAME, url, "listing items have an unexpected shape");
  return { items, data: parsed.data.data };
}

/** Can this source hold any of the asked types? */
function fits(types: readonly AssetType[]): boolean {
  return types.length === 0 || types.some((t) => ["texture", "material", "model", "pack", "other"].includes(t));
}

async function search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult> {
  const link = searchUrl(query);
  if (!fits(query.types)) return { assets: [], total: 0, searchUrl: link };
  const tag = tagOf(query.q);
  const { pages, skip } = pageWindow(query.offset, query.limit, query.limit);
  // A later page that fails ends the window there: the first page's results still stand.
  const answers = await leadingPages(pages.map((page) => listing(itemsUrl(tag, page, query.limit), ctx)), ctx.signal);
  const first = answers[0]!;
  if (tag && first.data.facets?.tags && !first.data.facets.tags.some((t) => t.slug === tag)) {
    // The tag does not exist: the API answered its unfiltered listing instead.
    return { assets: [], total: 0, searchUrl: link };
  }
  const wanted = typeFilter(query.types);
  const all = answers.flatMap((a) => a.items).slice(skip, skip + query.limit).map((item) => toAsset(item));
  const assets = all.filter((a) => wanted(a.type) && (!query.free || a.price?.free));
  const total = first.data.pagination?.totalCount;
  return { assets, ...(assets.length === all.length && typeof total === "number" ? { total } : {}), searchUrl: link };
}

async function getAsset(slug: string, ctx: SourceContext): Promise<AssetDetails | null> {
  const url = itemUrl(slug);
  const body = await unlessGone(fetchJson(NAME, url, ctx));
  if (body === undefined) return null;
  if (!body || typeof body !== "object" || !("data" in body)) throw shapeError(NAME, url, "item JSON has no data");
  const data = (body as { data: unknown }).data;
  if (data === null || (body as { success?: unknown }).success === false) return null;
  const detail = Detail.safeParse(data);
  if (!detail.success) throw shapeError(NAME, url, "item JSON has an unexpected shape");
  // Files stay empty: ShareTextures' terms forbid automated downloads.
  return { ...toAsset(detail.data, detail.data), files: [] };
}

async function census(ctx: SourceContext): Promise<SourceCensus> {
  const url = itemsUrl("", 1, CENSUS_PER_PAGE);
  const { items, data } = await listing(url, ctx);
  const total = data.pagination?.totalCount;
  if (typeof total !== "number") throw shapeError(NAME, url, "listing has no pagination.totalCount");
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total,
    free: total,
    byType: {},
    byLicense: { "CC0-1.0": total },
    unit: "assets",
    highlights: items
      .filter((i) => typeof i.downloadCount === "number")
      .map((i) => ({ label: "Most downloaded", title: i.title, url: pageUrl(i), value: Math.round(i.downloadCount!) })),
    method:
      "ShareTextures API: pagination.totalCount of the whole listing sorted by downloads (one request); not split by type, " +
      "every item counted as free CC0 (early-access items become free on release)",
    countedAt: ctx.now().toISOString(),
  };
}

/** The site's tag page for the query, or the texture list. */
function searchUrl(query: SourceQuery): string {
  const tag = tagOf(query.q);
  return tag ? `${SITE}/tag/${encodeURIComponent(tag)}` : `${SITE}/textures`;
}

export const sharetextures: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for CC0 PBR textures and atlases found by tag; download on the site (its terms forbid automated downloads).",
  assetTypes: ["texture", "model"],
  access: "api",
  pricing: "free",
  license: licenseById("CC0-1.0"),
  supportsDownload: false,
  mode: "live",
  unit: "assets",
  searchUrl,
  search,
  getAsset,
  census,
};
