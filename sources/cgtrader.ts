/**
 * CGTrader (https://www.cgtrader.com): a large marketplace of 3D models, free and paid. Live: its
 * listing page answers JSON when asked with `Accept: application/json`; product details come from
 * the product page's HTML. Every download needs a CGTrader login (and, for paid models, a purchase),
 * so files are `requiresAuth` links to the product page and no asset is `downloadable`.
 *
 * Upstream shapes used here:
 * - `/search?[free=1&]keywords=<q>[&page=P]` (Accept: application/json) →
 *   `{ data: [{ id, attributes: { title, price, url, description, schemaImageUrl, categoryTitle,
 *   subcategoryTitle, metaverseFormatsList, modelInfo.types } }], meta: { totalCount, perPage: 120 } }`.
 *   Parameters are written in the site's own order (alphabetical, as its `url` field shows them).
 * - product page HTML: JSON-LD `Product` (name, offers.price/priceCurrency, brand, image licence
 *   URL), `og:image`, and the `ItemPage/TopSection/TopSection` element's `data-react-props`
 *   (pricingArea.license/free, sellerArea, descriptionArea.relatedTags/breadcrumbs, detailsArea
 *   polygons/formats/publishDate).
 *
 * Bot wall: datacenter addresses may get an AWS WAF challenge instead (HTTP 202 with a small HTML
 * page that loads `challenge.js`; HTTP 405 for a CAPTCHA). It is detected and thrown as
 * "cgtrader: blocked by the site's bot challenge". Every CGTrader request is made with
 * `cache: false`: the shared client caches every 2xx answer, a 202 challenge included, and has no
 * way to drop one, so a cached challenge would fail every search for the cache's lifetime.
 */
import * as cheerio from "cheerio";
import { z } from "zod";
import type { Source, SourceContext, SourceQuery, SourceSearchResult } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, License, SourceCensus } from "../core/schemas/index.ts";
import { normalizeLicense } from "../core/license.ts";
import { UpstreamError, type TextResponse } from "../core/http/types.ts";
import { collectWindow, pageWindow } from "./kit/page-window.ts";
import { unlessGone } from "./kit/fetch.ts";

const SITE = "https://www.cgtrader.com";
const ID = "cgtrader";
const NAME = "CGTrader";
/** Items per listing page (meta.perPage); the site sets it, the request cannot. */
const PAGE_SIZE = 120;
/** A total of exactly this is the search engine's default cap (a lower bound), not a count. */
const CAPPED_TOTAL = 10_000;
const BLOCKED = `${ID}: blocked by the site's bot challenge`;
const ROYALTY_FREE_URL = `${SITE}/pages/terms-and-conditions#royalty-free-license`;
/** CGTrader's licence codes and their names on the site. */
const LICENSE_NAMES: Record<string, string> = {
  royalty_free: "CGTrader Royalty Free License",
  royalty_free_no_ai: "CGTrader Royalty Free License (no AI use)",
  editorial: "CGTrader Editorial License",
  editorial_no_ai: "CGTrader Editorial License (no AI use)",
};
/** Format names of the product page that are no file format. */
const NOT_FORMATS = new Set(["textures", "other", "others"]);
const IMAGE_FORMATS = new Set(["jpg", "jpeg", "png", "tga", "tif", "tiff", "exr", "bmp", "psd"]);

const Item = z.looseObject({
  id: z.union([z.string(), z.number()]),
  attributes: z.looseObject({
    title: z.string(),
    price: z.number().nullish(),
    description: z.string().nullish(),
    url: z.string(),
    schemaImageUrl: z.string().nullish(),
    primaryImage: z.looseObject({ gridUrl: z.string().nullish(), gridFallbackUrl: z.string().nullish() }).nullish(),
    categoryTitle: z.string().nullish(),
    subcategoryTitle: z.string().nullish(),
    metaverseFormatsList: z.array(z.looseObject({ name: z.string().nullish() })).nullish(),
    modelInfo: z
      .looseObject({ types: z.looseObject({ animated: z.boolean().nullish(), rigged: z.boolean().nullish() }).nullish() })
      .nullish(),
  }),
});
type Item = z.infer<typeof Item>;

const Listing = z.looseObject({
  data: z.array(z.unknown()),
  meta: z.looseObject({ totalCount: z.number(), perPage: z.number().nullish() }),
});

const Format = z.looseObject({ title: z.string().nullish() });
const Props = z.looseObject({
  sellerArea: z.looseObject({ designerName: z.string().nullish() }).nullish(),
  pricingArea: z.looseObject({ title: z.string().nullish(), free: z.boolean().nullish(), license: z.string().nullish() }).nullish(),
  descriptionArea: z
    .looseObject({
      description: z.string().nullish(),
      relatedTags: z.array(z.looseObject({ text: z.string() })).nullish(),
      breadcrumbs: z.array(z.looseObject({ title: z.string() })).nullish(),
    })
    .nullish(),
  detailsArea: z
    .looseObject({
      polygons: z.number().nullish(),
      animated: z.boolean().nullish(),
      rigged: z.boolean().nullish(),
      publishDate: z.string().nullish(),
      nativeFormats: z.array(Format).nullish(),
      exchangeFormats: z.array(Format).nullish(),
    })
    .nullish(),
});
type Props = z.infer<typeof Props>;

const Product = z.looseObject({
  "@type": z.literal("Product"),
  name: z.string(),
  brand: z.looseObject({ name: z.string().nullish() }).nullish(),
  offers: z.looseObject({ price: z.union([z.string(), z.number()]).nullish(), priceCurrency: z.string().nullish() }).nullish(),
  image: z.array(z.looseObject({ contentUrl: z.string().nullish(), license: z.string().nullish() })).nullish(),
});
type Product = z.infer<typeof Product>;

/** The listing URL: parameters in the site's own (alphabetical) order. */
export function listingUrl(q: string, free: boolean, page = 1): string {
  const params = new URLSearchParams();
  if (free) params.set("free", "1");
  if (q.trim()) params.set("keywords", q.trim());
  if (page > 1) params.set("page", String(page));
  const qs = params.toString();
  return `${SITE}/search${qs ? `?${qs}` : ""}`;
}

/** Product page path → native id (`free-3d-models/furniture/chair/x` → `free-3d-models~furniture~chair~x`). */
function nativeIdOf(pageUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(pageUrl, SITE);
  } catch {
    return undefined;
  }
  if (url.hostname !== "www.cgtrader.com") return undefined;
  const parts = url.pathname.split("/").filter(Boolean);
  return parts.length >= 2 && parts.every((p) => /^[a-z0-9-]+$/i.test(p)) ? parts.join("~") : undefined;
}

const pageUrlOf = (nativeId: string) => `${SITE}/${nativeId.split("~").join("/")}`;

/** The AWS WAF challenge (202) or any answer carrying its marks. */
function isChallenge(res: TextResponse): boolean {
  if (res.status === 202 || res.headers["x-amzn-waf-action"]) return true;
  const head = res.text.slice(0, 4000);
  return /awsWafCookieDomainList|gokuProps|\.awswaf\.com\/|challenge-container/.test(head);
}

/** GET without the cache (see the header comment), with the bot wall turned into one clear error. */
async function fetchPage(url: string, accept: string, ctx: SourceContext): Promise<TextResponse> {
  let res: TextResponse;
  try {
    res = await ctx.http.getText(url, { signal: ctx.signal, cache: false, headers: { accept } });
  } catch (err) {
    // 405 is AWS WAF's CAPTCHA answer; the client drops error bodies, so the status is all there is.
    if (err instanceof UpstreamError && err.status === 405) {
      throw new UpstreamError(`${BLOCKED} (HTTP 405)`, url, "http", 405);
    }
    throw err;
  }
  if (isChallenge(res)) throw new UpstreamError(`${BLOCKED} (HTTP ${res.status})`, url, "http", res.status);
  return res;
}

async function listing(url: string, ctx: SourceContext): Promise<{ items: Item[]; total: number }> {
  const res = await fetchPage(url, "application/json", ctx);
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    throw new UpstreamError(`${ID}: listing did not answer JSON`, url, "parse", res.status);
  }
  const parsed = Listing.safeParse(body);
  if (!parsed.success) throw new UpstreamError(`${ID}: listing JSON has no data array or meta.totalCount`, url, "parse");
  const items = parsed.data.data.flatMap((raw) => {
    const item = Item.safeParse(raw);
    return item.success && nativeIdOf(item.data.attributes.url) ? [item.data] : [];
  });
  if (parsed.data.data.length && !items.length) {
    throw new UpstreamError(`${ID}: no listing item has the expected shape`, url, "parse");
  }
  return { items, total: parsed.data.meta.totalCount };
}

const formatName = (raw: string | null | undefined) => {
  const f = (raw ?? "").trim().replace(/^\./, "").toLowerCase();
  return f && /^[a-z0-9]+$/.test(f) && !NOT_FORMATS.has(f) ? f : undefined;
};

function toAsset(item: Item): Asset {
  const a = item.attributes;
  const nativeId = nativeIdOf(a.url)!;
  const price = a.price ?? undefined;
  const formats = [...new Set((a.metaverseFormatsList ?? []).flatMap((f) => formatName(f.name) ?? []))];
  const categories = [a.categoryTitle, a.subcategoryTitle].filter((c): c is string => Boolean(c));
  const thumb = a.schemaImageUrl ?? a.primaryImage?.gridUrl ?? a.primaryImage?.gridFallbackUrl;
  const types = a.modelInfo?.types;
  const description = a.description?.trim();
  return {
    id: `${ID}:${nativeId}`,
    provider: ID,
    nativeId,
    title: a.title,
    ...(description ? { description } : {}),
    type: "model",
    tags: [],
    ...(categories.length ? { categories } : {}),
    url: pageUrlOf(nativeId),
    ...(thumb ? { thumbnailUrl: thumb } : {}),
    // Listing prices are US dollars (the site's currency); the sale discount is not applied.
    ...(price !== undefined ? { price: price > 0 ? { free: false, amount: price, currency: "USD" } : { free: true } } : {}),
    ...(formats.length ? { formats } : {}),
    ...(typeof types?.animated === "boolean" ? { animated: types.animated } : {}),
    ...(typeof types?.rigged === "boolean" ? { rigged: types.rigged } : {}),
    downloadable: false,
  };
}

async function search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult> {
  // Models only, and nothing downloads without a CGTrader login.
  if ((query.types.length && !query.types.includes("model")) || query.downloadable) return { assets: [] };
  const window = pageWindow(query.offset, query.limit, PAGE_SIZE);
  const { items, total } = await collectWindow(
    window,
    query.limit,
    PAGE_SIZE,
    (page) => listing(listingUrl(query.q, query.free, page), ctx),
    ctx.signal,
  );
  return { assets: items.map(toAsset), ...(total !== undefined ? { total } : {}), searchUrl: searchUrl(query) };
}

function license(code: string | null | undefined, url: string | undefined): License | undefined {
  if (!code) return undefined;
  const name = LICENSE_NAMES[code];
  if (name) return { name, ...(url ? { url } : {}) };
  return normalizeLicense(code.replace(/_/g, " "), url);
}

function jsonLdProduct($: cheerio.CheerioAPI): Product | undefined {
  for (const el of $('script[type="application/ld+json"]').toArray()) {
    let data: unknown;
    try {
      data = JSON.parse($(el).text());
    } catch {
      continue;
    }
    const nodes = Array.isArray(data) ? data : [data, ...(((data as { "@graph"?: unknown[] })?.["@graph"]) ?? [])];
    for (const node of nodes) {
      const product = Product.safeParse(node);
      if (product.success) return product.data;
    }
  }
  return undefined;
}

function reactProps($: cheerio.CheerioAPI): Props | undefined {
  const raw = $('[data-react-class="ItemPage/TopSection/TopSection"]').attr("data-react-props");
  if (!raw) return undefined;
  try {
    const props = Props.safeParse(JSON.parse(raw));
    return props.success ? props.data : undefined;
  } catch {
    return undefined;
  }
}

/** Text of a description's HTML, paragraphs and line breaks kept as new lines. */
function htmlText(html: string): string | undefined {
  const $ = cheerio.load(html, null, false);
  $("br").replaceWith("\n");
  $("p, li, div").after("\n");
  const text = $.root().text().replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n").trim();
  return text || undefined;
}

const stripTitle = (title: string) => title.replace(/\s*\|\s*(?:free\s+)?3d\s+model\s*$/i, "").trim();

/** Detail page → AssetDetails; files are login links to the page, one per format. */
export function parseProductPage(html: string, pageUrl: string, nativeId: string): AssetDetails {
  const $ = cheerio.load(html);
  const product = jsonLdProduct($);
  const props = reactProps($);
  if (!product && !props) throw new UpstreamError(`${ID}: product page has neither JSON-LD Product nor item props`, pageUrl, "parse");

  const ogTitle = $('meta[property="og:title"]').attr("content");
  const title = stripTitle(product?.name ?? ogTitle ?? "") || props?.pricingArea?.title?.replace(/\s+(?:free\s+)?3d\s+model$/i, "").trim();
  if (!title) throw new UpstreamError(`${ID}: product page has no title`, pageUrl, "parse");

  const details = props?.detailsArea;
  const descriptionHtml = props?.descriptionArea?.description;
  const description = descriptionHtml ? htmlText(descriptionHtml) : undefined;
  const crumbs = props?.descriptionArea?.breadcrumbs ?? [];
  // "3D Models" / "Free 3D Models" › category › subcategory › the item itself.
  const categories = crumbs.slice(1, -1).map((c) => c.title.trim()).filter(Boolean);
  const thumb = $('meta[property="og:image"]').attr("content") ?? product?.image?.[0]?.contentUrl ?? undefined;
  const author = props?.sellerArea?.designerName ?? product?.brand?.name ?? undefined;
  const licenseUrl = product?.image?.find((i) => i.license?.startsWith("https://"))?.license ?? undefined;
  const lic = license(props?.pricingArea?.license, licenseUrl ?? (props?.pricingArea?.license?.startsWith("royalty_free") ? ROYALTY_FREE_URL : undefined));
  const amount = Number(product?.offers?.price);
  const free = props?.pricingArea?.free ?? (Number.isFinite(amount) ? amount === 0 : undefined);
  const price =
    free === undefined
      ? undefined
      : free
        ? { free: true }
        : { free: false, ...(Number.isFinite(amount) && amount > 0 ? { amount, currency: product?.offers?.priceCurrency ?? "USD" } : {}) };
  const formats = [
    ...new Set([...(details?.nativeFormats ?? []), ...(details?.exchangeFormats ?? [])].flatMap((f) => formatName(f.title) ?? [])),
  ];
  const created = details?.publishDate && !Number.isNaN(Date.parse(details.publishDate)) ? details.publishDate : undefined;
  const slug = nativeId.split("~").pop()!;
  const files: AssetFile[] = formats.map((format) => ({
    url: pageUrl,
    filename: `${slug}.${format}`,
    format,
    group: IMAGE_FORMATS.has(format) ? "textures" : format,
    requiresAuth: true,
  }));

  return {
    id: `${ID}:${nativeId}`,
    provider: ID,
    nativeId,
    title,
    ...(description ? { description } : {}),
    type: "model",
    tags: (props?.descriptionArea?.relatedTags ?? []).map((t) => t.text),
    ...(categories.length ? { categories } : {}),
    url: pageUrl,
    ...(thumb ? { thumbnailUrl: thumb } : {}),
    ...(author ? { author } : {}),
    ...(lic ? { license: lic } : {}),
    ...(price ? { price } : {}),
    ...(formats.length ? { formats } : {}),
    ...(typeof details?.polygons === "number" ? { polyCount: Math.round(details.polygons) } : {}),
    ...(typeof details?.animated === "boolean" ? { animated: details.animated } : {}),
    ...(typeof details?.rigged === "boolean" ? { rigged: details.rigged } : {}),
    downloadable: false,
    ...(created ? { createdAt: created } : {}),
    files,
  };
}

async function getAsset(nativeId: string, ctx: SourceContext): Promise<AssetDetails | null> {
  const url = pageUrlOf(nativeId);
  if (nativeIdOf(url) !== nativeId) return null;
  const res = await unlessGone(fetchPage(url, "text/html", ctx));
  if (!res) return null;
  return parseProductPage(res.text, url, nativeId);
}

/** Two listing totals: every model, and the free ones. */
async function census(ctx: SourceContext): Promise<SourceCensus> {
  const all = await listing(listingUrl("", false), ctx);
  const free = await listing(listingUrl("", true), ctx);
  const atLeast = all.total === CAPPED_TOTAL || free.total === CAPPED_TOTAL;
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total: all.total,
    ...(atLeast ? { atLeast: true } : {}),
    free: free.total,
    byType: { model: all.total },
    unit: "assets",
    method: "CGTrader listing JSON (/search, with and without free=1): meta.totalCount of each",
    countedAt: ctx.now().toISOString(),
  };
}

/** The site's search page for people: the same URL as the listing JSON. */
function searchUrl(query: SourceQuery): string {
  return listingUrl(query.q, query.free);
}

export const cgtrader: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for the widest marketplace of free and paid 3D models; downloads need a CGTrader login.",
  assetTypes: ["model"],
  access: "scrape",
  pricing: "freemium",
  supportsDownload: false,
  mode: "live",
  unit: "assets",
  searchUrl,
  search,
  getAsset,
  census,
};
