/**
 * 3DTexel (https://3dtexel.com): a WordPress/WooCommerce shop with a free library of handmade CC0
 * PBR materials, HDRIs, decals, atlases, IES profiles, landscapes and 3D models (plus 3D road signs
 * and rocks under its own licence at 0 credits), and a paid library of AI-generated assets bought
 * with credits. Every download, even of a CC0 asset, needs an account on the site: no file here is
 * a plain GET, so files are links to the product page. Live: searched through the site's public
 * read-only JSON API (no key).
 *
 * Upstream shapes used here (see test/fixtures/3dtexel/manifest.json for the recordings):
 * - `/wp-json/3dtexel/v1/public/search?q=<q>[&type=<library>][&free=1]&page=<p>&per_page=50`
 *   → `{ query, type, page, per_page, total, match, items: [...], note }`. Every item has `id`
 *   (the WooCommerce product id), `title`, `type` (the library: `pbr`, `hdri`, `3d`, `premium-3d`,
 *   `ai-pbr` …), `source` (handmade/premium/ai), `url` (`/product/<slug>/`), `thumbnail`, `license`
 *   ("CC0 1.0 (public domain)" or "3DTexel License"), `updated`, `price` (`{free:true}` or
 *   `{free:false, credits:n}`); materials add `resolutions` ("1k", "2k", "4k").
 * - `/wp-json/3dtexel/v1/public/types` → every library with its `count`, `license`, `library_url`
 *   and `download_price_credits` (0 for the free libraries).
 * - `/wp-json/3dtexel/v1/public/categories?type=pbr` → the PBR library's categories with counts.
 * - `/wp-json/wp/v2/product?slug=<slug>&_fields=id,slug,title` → `[{ id, slug, title: { rendered } }]`
 *   (WordPress' own REST route of the products; the public API has no detail route, so a product is
 *   found again by searching its title and matching its id).
 */
import * as cheerio from "cheerio";
import { z } from "zod";
import type { Source, SourceContext, SourceQuery, SourceSearchResult } from "../core/source.ts";
import type { Asset, AssetDetails, AssetType, SourceCensus } from "../core/schemas/index.ts";
import { licenseKey, normalizeLicense } from "../core/license.ts";
import { fetchJson, shapeError, unlessGone } from "./kit/fetch.ts";
import { collectWindow, pageWindow } from "./kit/page-window.ts";
import { isHttpUrl } from "./kit/url.ts";

const ID = "3dtexel";
const NAME = "3DTexel";
const SITE = "https://3dtexel.com";
const PUBLIC_API = `${SITE}/wp-json/3dtexel/v1/public`;
const PRODUCTS_API = `${SITE}/wp-json/wp/v2/product`;
/** The page size the search is asked for (the one of every recorded search). */
const PAGE_SIZE = 50;
const SLUG = /^[a-z0-9][a-z0-9_-]*$/i;

/**
 * The site's libraries (as `/types` lists them) → our types, and whether downloading costs credits.
 * PBR sets with material settings are materials; decals, atlases, heightmaps and backdrops are textures.
 */
const LIBRARIES: Record<string, { type: AssetType; paid: boolean }> = {
  pbr: { type: "material", paid: false },
  hdri: { type: "hdri", paid: false },
  "3d": { type: "model", paid: false },
  decal: { type: "texture", paid: false },
  ies: { type: "other", paid: false },
  atlas: { type: "texture", paid: false },
  landscape: { type: "texture", paid: false },
  "premium-3d": { type: "model", paid: false },
  "ai-pbr": { type: "material", paid: true },
  "ai-decal": { type: "texture", paid: true },
  "ai-atlas": { type: "texture", paid: true },
  "ai-hdri": { type: "hdri", paid: true },
  "ai-heightmap": { type: "texture", paid: true },
  "ai-backdrop": { type: "texture", paid: true },
  "ai-motion": { type: "other", paid: true },
  "ai-3d": { type: "model", paid: true },
  "alpha-brush": { type: "other", paid: true },
  "ai-ies": { type: "other", paid: true },
};

const typeOfLibrary = (library: string): AssetType => LIBRARIES[library]?.type ?? "other";

const Item = z.looseObject({
  id: z.number(),
  title: z.string().min(1),
  type: z.string(),
  source: z.string().optional(),
  url: z.string(),
  thumbnail: z.string().optional(),
  license: z.string().optional(),
  price: z.looseObject({ free: z.boolean().optional(), credits: z.number().optional() }).optional(),
  resolutions: z.array(z.string()).optional(),
});
type Item = z.infer<typeof Item>;

const SearchBody = z.looseObject({ total: z.number().optional(), items: z.array(z.unknown()) });
const Library = z.looseObject({
  type: z.string().min(1),
  label: z.string().optional(),
  count: z.number().int().min(0),
  library_url: z.string().optional(),
  license: z.string().optional(),
  download_price_credits: z.number().optional(),
});
const Category = z.looseObject({ name: z.string().min(1), count: z.number().int().min(0) });
const Product = z.looseObject({ id: z.number(), slug: z.string(), title: z.looseObject({ rendered: z.string() }) });

/** `https://3dtexel.com/product/<slug>/` → `<slug>`. */
const slugOf = (url: string) => /^https?:\/\/(?:www\.)?3dtexel\.com\/product\/([^/?#]+)\/?$/.exec(url)?.[1];

/** Free when the API says so, or when it costs 0 credits (the road signs under the site's licence). */
function priceOf(item: Item): Asset["price"] | undefined {
  if (!item.price) return undefined;
  return { free: item.price.free === true || item.price.credits === 0 };
}

function toAsset(item: Item, url: string): Asset {
  const slug = slugOf(item.url);
  if (!slug) throw shapeError(ID, url, `item ${item.id} of ${url} has no /product/<slug>/ url`);
  const license = normalizeLicense(item.license);
  const price = priceOf(item);
  return {
    id: `${ID}:${slug}`,
    provider: ID,
    nativeId: slug,
    title: item.title,
    type: typeOfLibrary(item.type),
    tags: item.source === "ai" ? ["ai-generated"] : [],
    url: item.url,
    ...(isHttpUrl(item.thumbnail) ? { thumbnailUrl: item.thumbnail } : {}),
    ...(license ? { license } : {}),
    ...(price ? { price } : {}),
    ...(item.resolutions?.length ? { resolutions: item.resolutions } : {}),
    // Downloads need an account on the site, even for CC0 assets.
    downloadable: false,
  };
}

export function searchApiUrl(q: string, options: { type?: string; free?: boolean; page: number }): string {
  return (
    `${PUBLIC_API}/search?q=${encodeURIComponent(q.trim())}` +
    `${options.type ? `&type=${encodeURIComponent(options.type)}` : ""}` +
    `${options.free ? "&free=1" : ""}&page=${options.page}&per_page=${PAGE_SIZE}`
  );
}

async function fetchSearch(url: string, ctx: SourceContext): Promise<{ items: Item[]; total?: number }> {
  const body = SearchBody.safeParse(await fetchJson(ID, url, ctx));
  if (!body.success) throw shapeError(ID, url, `search JSON of ${url} has no items array`);
  const items = body.data.items.map((raw) => {
    const item = Item.safeParse(raw);
    if (!item.success) throw shapeError(ID, url, `an item of ${url} has no id, title, type or url`);
    return item.data;
  });
  return { items, ...(typeof body.data.total === "number" ? { total: body.data.total } : {}) };
}

/**
 * Which libraries a query can match. One library → the API's `type` filter; several → no filter
 * (with `free=1` for free queries) and the items are filtered here by type.
 */
function librariesOf(query: SourceQuery): string[] | "all" {
  if (!query.types.length && !query.free) return "all";
  return Object.entries(LIBRARIES)
    .filter(([, lib]) => (!query.types.length || query.types.includes(lib.type)) && !(query.free && lib.paid))
    .map(([name]) => name);
}

async function search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult> {
  const libraries = librariesOf(query);
  // Nothing is downloadable without an account; a type filter may leave no library.
  if (query.downloadable || libraries.length === 0) return { assets: [], total: 0 };
  const single = libraries !== "all" && libraries.length === 1 ? libraries[0] : undefined;
  // A single free library needs no `free=1`; a single paid one is never asked for a free query.
  const options = { ...(single ? { type: single } : {}), free: !single && query.free };
  const window = pageWindow(query.offset, query.limit, PAGE_SIZE);
  const { items, total } = await collectWindow(
    window,
    query.limit,
    PAGE_SIZE,
    (page) => {
      const url = searchApiUrl(query.q, { ...options, page });
      return fetchSearch(url, ctx).then((res) => ({ ...res, items: res.items.map((item) => ({ item, url })) }));
    },
    ctx.signal,
  );
  // Several libraries: filter here (the paging is the API's, so a page may hold fewer than `limit`).
  const filtering = !single && query.types.length > 0;
  const assets = items
    .map(({ item, url }) => toAsset(item, url))
    .filter((asset) => !filtering || query.types.includes(asset.type));
  return { assets, ...(total !== undefined && !filtering ? { total } : {}), searchUrl: searchUrl(query) };
}

/** `Mossy Rock &#8211; 3D Asset` → `Mossy Rock – 3D Asset`. */
const decodeHtml = (html: string) => cheerio.load(`<div>${html}</div>`)("div").first().text().trim();

const groupOf = (type: AssetType) => (type === "material" || type === "texture" ? "textures" : type === "hdri" ? "hdri" : "archive");

async function getAsset(nativeId: string, ctx: SourceContext): Promise<AssetDetails | null> {
  if (!SLUG.test(nativeId)) return null;
  const productUrl = `${PRODUCTS_API}?slug=${encodeURIComponent(nativeId)}&_fields=id,slug,title`;
  const raw = await unlessGone(fetchJson(ID, productUrl, ctx));
  if (raw === undefined) return null;
  const products = z.array(Product).safeParse(raw);
  if (!products.success) throw shapeError(ID, productUrl, `${productUrl} is not an array of products with id, slug and title`);
  const product = products.data.find((p) => p.slug === nativeId);
  if (!product) return null;

  const title = decodeHtml(product.title.rendered);
  const url = searchApiUrl(title, { page: 1 });
  const { items } = await fetchSearch(url, ctx);
  const item = items.find((i) => i.id === product.id) ?? items.find((i) => slugOf(i.url) === nativeId);
  // A product the public library search does not list (not an asset of the library).
  if (!item) return null;
  const asset = toAsset(item, url);
  return {
    ...asset,
    files: [{ url: asset.url, filename: nativeId, format: "page", group: groupOf(asset.type), requiresAuth: true }],
  };
}

/** Two requests: every library's count (free and paid), and the PBR library's categories. */
async function census(ctx: SourceContext): Promise<SourceCensus> {
  const typesUrl = `${PUBLIC_API}/types`;
  const categoriesUrl = `${PUBLIC_API}/categories?type=pbr`;
  const [typesBody, categoriesBody] = await Promise.all([fetchJson(ID, typesUrl, ctx), fetchJson(ID, categoriesUrl, ctx)]);
  const libraries = z.array(Library).min(1).safeParse(typesBody);
  if (!libraries.success) throw shapeError(ID, typesUrl, `${typesUrl} is not a list of libraries with counts`);
  const categories = z.array(Category).safeParse(categoriesBody);
  if (!categories.success) throw shapeError(ID, categoriesUrl, `${categoriesUrl} is not a list of categories with counts`);

  let total = 0;
  let free = 0;
  const byType: Record<string, number> = {};
  const byLicense: Record<string, number> = {};
  for (const lib of libraries.data) {
    total += lib.count;
    const isFree = lib.download_price_credits === 0;
    if (isFree) free += lib.count;
    const type = typeOfLibrary(lib.type);
    byType[type] = (byType[type] ?? 0) + lib.count;
    const license = normalizeLicense(lib.license);
    if (license) byLicense[licenseKey(license)] = (byLicense[licenseKey(license)] ?? 0) + lib.count;
  }
  const pbrCategories = Object.fromEntries(categories.data.map((c) => [c.name, c.count]));
  const highlight = (label: string, pick: (typeof libraries.data)[number][]) => {
    const top = [...pick].sort((a, b) => b.count - a.count)[0];
    return top && isHttpUrl(top.library_url) ? [{ label, title: top.label ?? top.type, url: top.library_url, value: top.count }] : [];
  };
  const highlights = [
    ...highlight("Largest free library", libraries.data.filter((l) => l.download_price_credits === 0)),
    ...highlight("Largest paid library", libraries.data.filter((l) => (l.download_price_credits ?? 0) > 0)),
  ];
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total,
    free,
    byType,
    ...(Object.keys(byLicense).length ? { byLicense } : {}),
    ...(Object.keys(pbrCategories).length ? { categories: pbrCategories } : {}),
    unit: "assets",
    ...(highlights.length ? { highlights } : {}),
    method:
      "3DTexel public API: the `count` of every library in /wp-json/3dtexel/v1/public/types (free = libraries at 0 credits; licences as each library states them); categories are the PBR library's (/categories?type=pbr)",
    countedAt: ctx.now().toISOString(),
  };
}

/** WordPress' product search on the site. */
function searchUrl(query: SourceQuery): string {
  return `${SITE}/?s=${encodeURIComponent(query.q.trim())}&post_type=product`;
}

export const threeDTexel: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description:
    "Best for free handmade CC0 PBR materials, decals, HDRIs and IES profiles (downloads need a free account); also AI-generated assets sold for credits.",
  assetTypes: ["material", "texture", "hdri", "model", "other"],
  access: "api",
  pricing: "freemium",
  supportsDownload: false,
  mode: "live",
  unit: "assets",
  searchUrl,
  search,
  getAsset,
  census,
};
