/**
 * HDRMAPS (https://hdrmaps.com): high-resolution HDRI skies and environments, sold per licence, with a free "freebies" range of
 * plain EXR file links. Live, through the shop's WooCommerce Store API: `/wp-json/wc/store/v1/products?search=…` (or `slug=…`)
 * answers an array of products, their count in `X-WP-Total`. A freebie's page lists its EXR files, resolutions and sizes.
 */
import { z } from "zod";
import { normalizeLicense } from "../core/model/license.ts";
import { type AssetDetails, type AssetFile, assetMaker, compact, type Price } from "./kit/asset.ts";
import { countBy } from "./kit/census.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { expectShape, type SourceIo, shapeError, unlessGone } from "./kit/fetch.ts";
import { extensionOf, fileNameOf, parseSize } from "./kit/files.ts";
import type { Sort } from "./kit/filters.ts";
import { htmlText, loadHtml } from "./kit/html.ts";
import { windowPages } from "./kit/page-window.ts";
import { priceFrom } from "./kit/price.ts";
import { httpUrl } from "./kit/url.ts";

const ID = "hdrmaps";
const SITE = "https://hdrmaps.com";
const API = `${SITE}/wp-json/wc/store/v1/products`;
/** Category ids left out of every search, as in the recorded query (not HDRIs sold on this shop). */
const EXCLUDED = [3129, 3130, 3131, 3132, 3133, 3134, 3148, 2874, 15];
const LISTED = `&category=${EXCLUDED.join(",")}&category_operator=not_in`;
const FIELDS = "id,name,slug,permalink,type,short_description,prices,images,categories,tags,attributes";
/** The "Freebies" category (id 64 in the recordings): free HDRIs with direct EXR links. */
const FREEBIES = { id: 64, slug: "freebies" };
const asset = assetMaker(ID);

const text = z.string().optional();
const Term = z.looseObject({ id: z.number().optional(), name: z.string(), slug: text });
const Terms = z.array(Term).optional();
const Prices = z.looseObject({ price: text, currency_code: text, currency_minor_unit: z.number().optional() });
const Image = z.looseObject({ src: text, thumbnail: text });
const Attribute = z.looseObject({ name: z.string(), terms: z.array(z.looseObject({ name: z.string() })).optional() });
const Product = z
  .looseObject({ id: z.number(), name: z.string(), slug: z.string().min(1), permalink: z.string(), short_description: text, prices: Prices.optional() })
  .extend({ images: z.array(Image).optional(), categories: Terms, tags: Terms, attributes: z.array(Attribute).optional() });
type Product = z.infer<typeof Product>;
const attribute = (p: Product, name: string) => p.attributes?.find((a) => a.name.toLowerCase() === name.toLowerCase())?.terms?.map((t) => t.name) ?? [];

/** `10000x5000` → `10k` (HDRMAPS names resolutions by thousands of pixels: "10K", "30K"). */
function resolutionOf(p: Product): string | undefined {
  const m = /(\d{3,6})\s*[x×]\s*(\d{3,6})/.exec(attribute(p, "HDRI Resolution")[0] ?? "");
  const k = m ? Math.round(Math.max(Number(m[1]), Number(m[2])) / 1000) : 0;
  return k >= 1 ? `${k}k` : undefined;
}

function priceOf({ prices }: Product): Price | undefined {
  if (prices?.price === undefined || !/^\d+$/.test(prices.price)) return undefined;
  const amount = Number(prices.price) / 10 ** (prices.currency_minor_unit ?? 2);
  return priceFrom(amount, prices.currency_code);
}

const isFreebie = (p: Product) => priceOf(p)?.free === true || (p.categories ?? []).some((c) => c.id === FREEBIES.id || c.slug === FREEBIES.slug);
/** A product only in excluded categories slipped past the filter (the recording shows one): not listed. */
const isExcluded = ({ categories = [] }: Product) => categories.length > 0 && categories.every((c) => c.id !== undefined && EXCLUDED.includes(c.id));
/** The product page, only when it is on hdrmaps.com. */
const pageOf = ({ permalink, id }: Product) =>
  URL.canParse(permalink) && /^https:\/\/(www\.)?hdrmaps\.com$/.test(new URL(permalink).origin) ? new URL(permalink).href : `${SITE}/?p=${id}`;

function toAsset(p: Product) {
  const free = isFreebie(p);
  return asset(p.slug, {
    title: htmlText(p.name) || p.slug,
    description: htmlText(p.short_description ?? ""),
    type: "hdri",
    tags: (p.tags ?? []).map((t) => htmlText(t.name)).filter(Boolean),
    categories: (p.categories ?? []).map((c) => htmlText(c.name)).filter(Boolean),
    url: pageOf(p),
    thumbnailUrl: p.images?.[0]?.thumbnail || p.images?.[0]?.src,
    license: normalizeLicense(attribute(p, "License Type")[0]),
    price: priceOf(p),
    formats: free ? ["exr"] : undefined, // what a paid licence delivers is not in the API
    resolutions: [resolutionOf(p)].filter((r) => r !== undefined),
    downloadable: free,
  });
}

/** The Store API's `orderby=date&order=desc` (newest products first) on sort=newest; otherwise its own order. */
const orderOf = (sort: Sort) => (sort === "newest" ? "&orderby=date&order=desc" : "");
export const searchApiUrl = (q: string, perPage: number, page: number, free: boolean, sort: Sort = "relevance") =>
  `${API}?search=${encodeURIComponent(q.trim())}&per_page=${perPage}${LISTED}${free ? "&max_price=0" : ""}${orderOf(sort)}${page > 1 ? `&page=${page}` : ""}&_fields=${FIELDS}`;

async function fetchProducts(url: string, io: SourceIo): Promise<{ items: Product[]; total?: number }> {
  const { body, headers } = await io.jsonWithHeaders(url);
  const items = expectShape(ID, url, z.array(Product), body, `${url} did not answer an array of products with id, name, slug and permalink`);
  const total = headers["x-wp-total"]?.trim();
  return { items, total: total && /^\d+$/.test(total) ? Number(total) : undefined };
}

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  if (query.types.length && !query.types.includes("hdri")) return { assets: [], total: 0 };
  const free = query.free || query.downloadable; // downloadable products are exactly the free ones (the freebies' EXRs)
  const perPage = Math.min(100, Math.max(1, query.limit));
  const { answers, items } = await windowPages(query, perPage, io, (p) => fetchProducts(searchApiUrl(query.q, perPage, p, free, query.sort), io));
  const kept = items.filter((p) => !isExcluded(p) && (!free || isFreebie(p)));
  return { assets: kept.map(toAsset), ...compact({ total: answers[0]?.total }), searchUrl: searchUrl(query) };
}

/** The EXR files of a freebie page: the resolution menu, else the download link (sizes in binary units, as WordPress writes them). */
export function parseFreebiePage(html: string): AssetFile[] {
  const $ = loadHtml(html);
  const files = new Map<string, AssetFile>();
  const add = (href: string | undefined, label: string, size: string | undefined) => {
    const url = httpUrl(href, SITE);
    if (!url || !/^https:\/\/([^/]+\.)?hdrmaps\.com$/.test(new URL(url).origin) || files.has(url)) return;
    const filename = fileNameOf(url);
    const format = extensionOf(filename);
    const resolution = /(\d+)\s*k\b/i.exec(label)?.[1] ?? /_(\d+)K\./.exec(filename)?.[1];
    if (format) files.set(url, compact({ url, filename, format, resolution: resolution && `${resolution}k`, sizeBytes: parseSize(size, 1024), group: "hdri" }));
  };
  const options = $("select#freebiesResolutionSelect option, select[name='resolution'] option");
  options.each((_, el) => add($(el).attr("value"), $(el).text(), $(el).attr("data-size")));
  if (!files.size) $("a#freebiesDownloadLink, a.freebies-download-btn").each((_, el) => add($(el).attr("href"), "", $(el).find("#downloadSize").text()));
  return [...files.values()];
}

async function getAsset(slug: string, io: SourceIo): Promise<AssetDetails | null> {
  const url = `${API}?slug=${encodeURIComponent(slug)}&_fields=${FIELDS}`;
  const found = /^[a-z0-9][a-z0-9_-]*$/i.test(slug) ? await unlessGone(fetchProducts(url, io)) : undefined;
  const product = found?.items.find((p) => p.slug === slug);
  if (!product) return null;
  const details = toAsset(product);
  if (!isFreebie(product)) {
    // What a licence delivers is decided at checkout: one link to the product page.
    const file = compact({ url: details.url, filename: slug, format: "page", resolution: resolutionOf(product), group: "hdri", requiresAuth: true });
    return { ...details, files: [file] };
  }
  const files = parseFreebiePage((await io.text(details.url)).text);
  if (!files.length) throw shapeError(ID, details.url, `freebie page ${details.url} has no download links (page changed?)`);
  const resolutions = [...new Set(files.map((f) => f.resolution).filter((r) => r !== undefined))];
  return { ...details, formats: [...new Set(files.map((f) => f.format))], ...compact({ resolutions }), files };
}

/** Categories are counted only when one page of 100 holds every product. */
async function census(io: SourceIo): Promise<CensusBody> {
  const allUrl = `${API}?per_page=100${LISTED}&_fields=id,categories,prices`;
  const [all, free] = await Promise.all([fetchProducts(allUrl, io), fetchProducts(`${API}?per_page=100&category=${FREEBIES.id}&_fields=id`, io)]);
  const listed = all.items.filter((p) => !isExcluded(p));
  const total = all.total ?? listed.length;
  return compact({
    total,
    atLeast: all.total === undefined && all.items.length >= 100 ? true : undefined,
    free: free.total ?? free.items.length,
    categories: all.items.length < 100 ? countBy(listed, (p) => (p.categories ?? []).map((c) => htmlText(c.name))) : undefined,
    method:
      "WooCommerce Store API: X-WP-Total of the product listing without the excluded categories, and of the Freebies category" +
      (all.total === undefined ? " (no X-WP-Total header: the products returned were counted, a lower bound)" : ""),
  });
}

const searchUrl = (query: SourceQuery) =>
  `${SITE}/?s=${encodeURIComponent(query.q.trim())}&post_type=product${query.free ? `&product_cat=${FREEBIES.slug}` : ""}`;

export const hdrmaps = defineSource(
  {
    id: ID,
    name: "HDRMAPS",
    homepage: SITE,
    description: "Best for very high-resolution HDRI skies and landscapes; a free range of direct EXR downloads.",
    assetTypes: ["hdri"],
    access: "api",
    pricing: "freemium",
    supportsDownload: true,
    unit: "assets",
    // Products carry categories, the resolution and (freebies) the EXR format; their licence is a name ("Royalty-Free") without
    // SPDX id or terms, and they have no dates or download counts.
    filtering: { upstream: ["newest"], listed: ["category", "format", "resolution"] },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
