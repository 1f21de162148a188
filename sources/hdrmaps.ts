/**
 * HDRMAPS (https://hdrmaps.com): high-resolution HDRI skies and environments, sold per licence, with a
 * free "freebies" range whose EXRs are plain file links. Live: searched through the shop's public
 * WooCommerce Store API.
 *
 * Upstream shapes used here:
 * - `/wp-json/wc/store/v1/products?search=<q>&per_page=<n>&category=<ids>&category_operator=not_in&_fields=<fields>`
 *   → an array of products: `id`, `name`, `slug`, `type` (simple/variable), `permalink`
 *   (`/freebies/<slug>/` or `/hdri/<slug>/`), `short_description` (HTML), `prices` (minor units as
 *   strings, `currency_code`, `currency_minor_unit`, `price_range` for variable products), `images`,
 *   `categories`, `tags`, and `attributes` ("HDRI Resolution" 10000x5000, "License Type" Royalty-Free,
 *   "License" Personal/Professional …). The excluded category ids are those of the recorded query:
 *   products that are not HDRIs for sale here. Paging: `&page=<p>`; the count is the `X-WP-Total` header.
 * - the same endpoint with `slug=<slug>` → an array of one product.
 * - a freebie's page (`permalink`) → `select#freebiesResolutionSelect` whose options' values are the
 *   EXR files on `dl.hdrmaps.com`, their text the resolution ("10K") and `data-size` the size ("462.28 MB").
 */
import * as cheerio from "cheerio";
import { z } from "zod";
import type { Source, SourceContext, SourceQuery, SourceSearchResult } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, SourceCensus } from "../core/schemas/index.ts";
import { normalizeLicense } from "../core/license.ts";
import { leadingPages, pageWindow } from "./kit/page-window.ts";
import { unlessGone } from "./kit/fetch.ts";

const ID = "hdrmaps";
const NAME = "HDRMAPS";
const SITE = "https://hdrmaps.com";
const API = `${SITE}/wp-json/wc/store/v1/products`;
/** Category ids left out of every search, as in the recorded query (not HDRIs sold on this shop). */
const EXCLUDED = [3129, 3130, 3131, 3132, 3133, 3134, 3148, 2874, 15];
const EXCLUDED_PARAM = EXCLUDED.join(",");
const FIELDS = "id,name,slug,permalink,type,short_description,prices,images,categories,tags,attributes";
/** The "Freebies" category (id 64 in the recordings): free HDRIs with direct EXR links. */
const FREEBIES = { id: 64, slug: "freebies" };

const Term = z.looseObject({ id: z.number().optional(), name: z.string(), slug: z.string().optional() });
const Product = z.looseObject({
  id: z.number(),
  name: z.string(),
  slug: z.string().min(1),
  type: z.string().optional(),
  permalink: z.string(),
  short_description: z.string().optional(),
  prices: z
    .looseObject({
      price: z.string().optional(),
      currency_code: z.string().optional(),
      currency_minor_unit: z.number().optional(),
    })
    .optional(),
  images: z.array(z.looseObject({ src: z.string().optional(), thumbnail: z.string().optional() })).optional(),
  categories: z.array(Term).optional(),
  tags: z.array(Term).optional(),
  attributes: z.array(z.looseObject({ name: z.string(), terms: z.array(z.looseObject({ name: z.string() })).optional() })).optional(),
});
type Product = z.infer<typeof Product>;

const text = (html: string | undefined) => (html ? cheerio.load(`<div>${html}</div>`)("div").first().text().replace(/\s+/g, " ").trim() : "");

const attribute = (p: Product, name: string) => p.attributes?.find((a) => a.name.toLowerCase() === name.toLowerCase())?.terms?.map((t) => t.name) ?? [];

/** `10000x5000` → `10k` (HDRMAPS names resolutions by thousands of pixels: "10K", "30K"). */
function resolutionOf(p: Product): string | undefined {
  const m = /(\d{3,6})\s*[x×]\s*(\d{3,6})/.exec(attribute(p, "HDRI Resolution")[0] ?? "");
  if (!m) return undefined;
  const k = Math.round(Math.max(Number(m[1]), Number(m[2])) / 1000);
  return k >= 1 ? `${k}k` : undefined;
}

function priceOf(p: Product): Asset["price"] | undefined {
  const raw = p.prices?.price;
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  const amount = Number(raw) / 10 ** (p.prices?.currency_minor_unit ?? 2);
  if (amount === 0) return { free: true };
  return { free: false, amount, ...(p.prices?.currency_code ? { currency: p.prices.currency_code } : {}) };
}

const isFreebie = (p: Product) => priceOf(p)?.free === true || (p.categories ?? []).some((c) => c.id === FREEBIES.id || c.slug === FREEBIES.slug);

/** A product only in excluded categories slipped past the filter (the recording shows one): not listed. */
const isExcluded = (p: Product) => {
  const cats = p.categories ?? [];
  return cats.length > 0 && cats.every((c) => c.id !== undefined && EXCLUDED.includes(c.id));
};

/** The product page, only when it is on hdrmaps.com. */
function pageOf(p: Product): string {
  try {
    const url = new URL(p.permalink);
    if (url.protocol === "https:" && (url.hostname === "hdrmaps.com" || url.hostname === "www.hdrmaps.com")) return url.href;
  } catch {
    // fall through
  }
  return `${SITE}/?p=${p.id}`;
}

function toAsset(p: Product): Asset {
  const description = text(p.short_description);
  const image = p.images?.[0];
  const thumbnailUrl = image?.thumbnail || image?.src;
  const licenseName = attribute(p, "License Type")[0];
  const license = licenseName ? normalizeLicense(licenseName) : undefined;
  const price = priceOf(p);
  const resolution = resolutionOf(p);
  const free = isFreebie(p);
  return {
    id: `${ID}:${p.slug}`,
    provider: ID,
    nativeId: p.slug,
    title: text(p.name) || p.slug,
    ...(description ? { description } : {}),
    type: "hdri",
    tags: (p.tags ?? []).map((t) => text(t.name)).filter(Boolean),
    categories: (p.categories ?? []).map((c) => text(c.name)).filter(Boolean),
    url: pageOf(p),
    ...(thumbnailUrl && /^https?:\/\//.test(thumbnailUrl) ? { thumbnailUrl } : {}),
    ...(license ? { license } : {}),
    ...(price ? { price } : {}),
    // Freebies are EXR files; what a paid licence delivers is not in the API.
    ...(free ? { formats: ["exr"] } : {}),
    ...(resolution ? { resolutions: [resolution] } : {}),
    downloadable: free,
  };
}

export function searchApiUrl(q: string, perPage: number, page: number, free: boolean): string {
  return (
    `${API}?search=${encodeURIComponent(q.trim())}&per_page=${perPage}&category=${EXCLUDED_PARAM}&category_operator=not_in` +
    `${free ? "&max_price=0" : ""}${page > 1 ? `&page=${page}` : ""}&_fields=${FIELDS}`
  );
}

/** One Store API call: the products, and the `X-WP-Total` count when the response carries it. */
async function fetchProducts(url: string, ctx: SourceContext): Promise<{ products: Product[]; total?: number }> {
  const res = await ctx.http.getText(url, { signal: ctx.signal, headers: { accept: "application/json" } });
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    throw new Error(`hdrmaps: ${url} did not answer JSON`);
  }
  if (!Array.isArray(body)) throw new Error(`hdrmaps: ${url} did not answer a product array`);
  const products = body.map((raw) => {
    const parsed = Product.safeParse(raw);
    if (!parsed.success) throw new Error(`hdrmaps: a product of ${url} lacks id, name, slug or permalink`);
    return parsed.data;
  });
  const header = res.headers["x-wp-total"];
  const total = header !== undefined && /^\d+$/.test(header.trim()) ? Number(header) : undefined;
  return { products, ...(total !== undefined ? { total } : {}) };
}

async function search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult> {
  if (query.types.length && !query.types.includes("hdri")) return { assets: [], total: 0 };
  // Downloadable products are exactly the free ones (the freebies' EXRs).
  const free = query.free || query.downloadable;
  const perPage = Math.min(100, Math.max(1, query.limit));
  const { pages, skip } = pageWindow(query.offset, perPage, perPage);
  // A later page that fails ends the window there: the first page's results still stand.
  const results = await leadingPages(pages.map((p) => fetchProducts(searchApiUrl(query.q, perPage, p, free), ctx)), ctx.signal);
  const products = results
    .flatMap((r) => r.products)
    .slice(skip, skip + query.limit)
    .filter((p) => !isExcluded(p))
    .filter((p) => !free || isFreebie(p));
  const total = results[0]?.total;
  return { assets: products.map(toAsset), ...(total !== undefined ? { total } : {}), searchUrl: searchUrl(query) };
}

/** `462.28 MB` → bytes (binary units, as WordPress writes sizes); approximate by nature. */
function sizeBytes(raw: string | undefined): number | undefined {
  const m = /([\d.]+)\s*(KB|MB|GB)/i.exec(raw ?? "");
  if (!m) return undefined;
  const power = { KB: 1, MB: 2, GB: 3 }[m[2]!.toUpperCase() as "KB" | "MB" | "GB"];
  return Math.round(Number(m[1]) * 1024 ** power);
}

/** The EXR files of a freebie page: the resolution menu, else the download link. */
export function parseFreebiePage(html: string): AssetFile[] {
  const $ = cheerio.load(html);
  const files = new Map<string, AssetFile>();
  const add = (href: string | undefined, label: string, size: string | undefined) => {
    if (!href) return;
    let url: URL;
    try {
      url = new URL(href, SITE);
    } catch {
      return;
    }
    if (url.protocol !== "https:" || !/(^|\.)hdrmaps\.com$/.test(url.hostname) || files.has(url.href)) return;
    const filename = decodeURIComponent(url.pathname.split("/").pop() ?? "");
    const format = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
    if (!format) return;
    const resolution = /(\d+)\s*k\b/i.exec(label)?.[1] ?? /_(\d+)K\./.exec(filename)?.[1];
    const bytes = sizeBytes(size);
    files.set(url.href, {
      url: url.href,
      filename,
      format,
      ...(resolution ? { resolution: `${resolution}k` } : {}),
      ...(bytes ? { sizeBytes: bytes } : {}),
      group: "hdri",
    });
  };
  $("select#freebiesResolutionSelect option, select[name='resolution'] option").each((_, el) => {
    add($(el).attr("value"), $(el).text(), $(el).attr("data-size"));
  });
  if (!files.size) $("a#freebiesDownloadLink, a.freebies-download-btn").each((_, el) => add($(el).attr("href"), "", $(el).find("#downloadSize").text()));
  return [...files.values()];
}

async function getAsset(slug: string, ctx: SourceContext): Promise<AssetDetails | null> {
  if (!/^[a-z0-9][a-z0-9_-]*$/i.test(slug)) return null;
  const found = await unlessGone(fetchProducts(`${API}?slug=${encodeURIComponent(slug)}&_fields=${FIELDS}`, ctx));
  if (!found) return null;
  const { products } = found;
  const product = products.find((p) => p.slug === slug);
  if (!product) return null;
  const asset = toAsset(product);

  if (!isFreebie(product)) {
    // What a licence delivers is decided at checkout: one link to the product page.
    const resolution = resolutionOf(product);
    const files: AssetFile[] = [
      { url: asset.url, filename: slug, format: "page", ...(resolution ? { resolution } : {}), group: "hdri", requiresAuth: true },
    ];
    return { ...asset, downloadable: false, files };
  }

  const { text: html } = await ctx.http.getText(asset.url, { signal: ctx.signal });
  const files = parseFreebiePage(html);
  if (!files.length) throw new Error(`hdrmaps: freebie page ${asset.url} has no download links (page changed?)`);
  const resolutions = [...new Set(files.map((f) => f.resolution).filter((r): r is string => Boolean(r)))];
  const formats = [...new Set(files.map((f) => f.format))];
  return { ...asset, formats, ...(resolutions.length ? { resolutions } : {}), downloadable: true, files };
}

/**
 * Two listings of up to 100 products: every product outside the excluded categories, and the
 * freebies. Their `X-WP-Total` headers are the counts; without them, the products returned are a
 * lower bound.
 */
async function census(ctx: SourceContext): Promise<SourceCensus> {
  const allUrl = `${API}?per_page=100&category=${EXCLUDED_PARAM}&category_operator=not_in&_fields=id,categories,prices`;
  const freeUrl = `${API}?per_page=100&category=${FREEBIES.id}&_fields=id`;
  const [all, free] = await Promise.all([fetchProducts(allUrl, ctx), fetchProducts(freeUrl, ctx)]);
  const listed = all.products.filter((p) => !isExcluded(p));
  const total = all.total ?? listed.length;
  const freeCount = free.total ?? free.products.length;
  const atLeast = all.total === undefined && all.products.length >= 100;
  // Categories only when the one page holds the whole catalogue.
  const complete = all.products.length < 100;
  const categories: Record<string, number> = {};
  if (complete) for (const p of listed) for (const c of p.categories ?? []) categories[text(c.name)] = (categories[text(c.name)] ?? 0) + 1;
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total,
    ...(atLeast ? { atLeast } : {}),
    free: freeCount,
    byType: { hdri: total },
    ...(complete ? { categories } : {}),
    unit: "assets",
    method:
      "WooCommerce Store API: X-WP-Total of the product listing without the excluded categories, and of the Freebies category" +
      (all.total === undefined ? " (no X-WP-Total header: the products returned were counted, a lower bound)" : ""),
    countedAt: ctx.now().toISOString(),
  };
}

/** The shop's own product search; free narrows it to the Freebies category. */
function searchUrl(query: SourceQuery): string {
  const q = query.q.trim();
  return `${SITE}/?s=${encodeURIComponent(q)}&post_type=product${query.free ? `&product_cat=${FREEBIES.slug}` : ""}`;
}

export const hdrmaps: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for very high-resolution HDRI skies and landscapes; a free range of direct EXR downloads.",
  assetTypes: ["hdri"],
  access: "api",
  pricing: "freemium",
  supportsDownload: true,
  mode: "live",
  unit: "assets",
  searchUrl,
  search,
  getAsset,
  census,
};
