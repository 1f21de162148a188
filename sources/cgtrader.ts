/**
 * CGTrader (https://www.cgtrader.com): a large marketplace of 3D models, free and paid. Live: the listing page answers JSON to `Accept: application/json`;
 * details come from the product page's HTML. Every download needs a CGTrader login (and, for paid models, a purchase): files are `requiresAuth` page links.
 * Bot wall: datacenter addresses may get an AWS WAF challenge instead (HTTP 202 with a page that loads `challenge.js`; HTTP 405 for a CAPTCHA). Every
 * request is made with `cache: false`: the shared client caches every 2xx answer, a 202 challenge included, and cannot drop one, so a cached challenge
 * would fail every search for the cache's lifetime.
 */
import { z } from "zod";
import type { TextResponse } from "../core/http/types.ts";
import { normalizeLicense } from "../core/model/license.ts";
import { SourceError } from "../core/model/source-error.ts";
import { type Asset, type AssetDetails, assetMaker, compact, type License, round } from "./kit/asset.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { parseJson, type SourceIo, shapeError, unlessGone } from "./kit/fetch.ts";
import { mapOne, type SearchFilters } from "./kit/filters.ts";
import { jsonLd, loadHtml, metaContent } from "./kit/html.ts";
import { collectWindow } from "./kit/page-window.ts";
import { httpUrl } from "./kit/url.ts";

const SITE = "https://www.cgtrader.com";
const ID = "cgtrader";
const asset = assetMaker(ID);
const PAGE_SIZE = 120; // items per listing page (meta.perPage): the site sets it, the request cannot
const CAPPED_TOTAL = 10_000; // a total of exactly this is the search engine's default cap (a lower bound), not a count
/** CGTrader's licence codes (each also with `_no_ai`) and their names on the site. */
const LICENSE_NAMES: Record<string, string> = { royalty_free: "CGTrader Royalty Free License", editorial: "CGTrader Editorial License" };
const NOT_FORMATS = new Set(["textures", "other", "others"]); // format names of the product page that are no file format
const IMAGE_FORMATS = new Set(["jpg", "jpeg", "png", "tga", "tif", "tiff", "exr", "bmp", "psd"]);

const [str, num, bool] = [z.string().nullish(), z.number().nullish(), z.boolean().nullish()];
const list = <T extends z.core.$ZodLooseShape>(shape: T) => z.array(z.looseObject(shape)).nullish();

/** Product page path → native id (`free-3d-models/furniture/chair/x` → `free-3d-models~furniture~chair~x`). */
function nativeIdOf(pageUrl: string): string | undefined {
  const url = new URL(httpUrl(pageUrl, SITE) ?? SITE); // no http(s) URL: the site's root, no product
  const parts = url.pathname.split("/").filter(Boolean);
  return url.hostname === "www.cgtrader.com" && parts.length >= 2 && parts.every((p) => /^[a-z0-9-]+$/i.test(p)) ? parts.join("~") : undefined;
}
const pageUrlOf = (nativeId: string) => `${SITE}/${nativeId.split("~").join("/")}`;

const Attributes = z
  .looseObject({ title: z.string(), price: num, description: str, schemaImageUrl: str, categoryTitle: str, subcategoryTitle: str })
  .extend({ metaverseFormatsList: list({ name: str }), primaryImage: z.looseObject({ gridUrl: str, gridFallbackUrl: str }).nullish() })
  .extend({ modelInfo: z.looseObject({ types: z.looseObject({ animated: bool, rigged: bool }).nullish() }).nullish() })
  /** The product page, read as its native id: an item whose URL is no product page is left out. */
  .extend({ url: z.string().transform(nativeIdOf).pipe(z.string()) });
const Item = z.looseObject({ id: z.union([z.string(), z.number()]), attributes: Attributes });
type Item = z.infer<typeof Item>;
const Listing = z.looseObject({ data: z.array(z.unknown()), meta: z.looseObject({ totalCount: z.number(), perPage: num }) });

const Formats = list({ title: str });
const Props = z.looseObject({
  sellerArea: z.looseObject({ designerName: str }).nullish(),
  pricingArea: z.looseObject({ title: str, free: bool, license: str }).nullish(),
  descriptionArea: z.looseObject({ description: str, relatedTags: list({ text: z.string() }), breadcrumbs: list({ title: z.string() }) }).nullish(),
  detailsArea: z.looseObject({ polygons: num, animated: bool, rigged: bool, publishDate: str, nativeFormats: Formats, exchangeFormats: Formats }).nullish(),
});
const Product = z
  .looseObject({ "@type": z.literal("Product"), name: z.string(), brand: z.looseObject({ name: str }).nullish() })
  .extend({ image: list({ contentUrl: str, license: str }) })
  .extend({ offers: z.looseObject({ price: z.union([z.string(), z.number()]).nullish(), priceCurrency: str }).nullish() });

/** The listing URL: parameters in the site's own (alphabetical) order; `fileType` a FILE_TYPES id. */
export function listingUrl(q: string, free: boolean, page = 1, fileType?: number): string {
  const params = { "file_types[]": fileType === undefined ? "" : `${fileType}`, free: free ? "1" : "", keywords: q.trim(), page: page > 1 ? `${page}` : "" };
  const qs = new URLSearchParams(compact(params)).toString();
  return `${SITE}/search${qs ? `?${qs}` : ""}`;
}

/**
 * The site's format ids, as its listings name them (`metaverseFormatsList[].id`, see test/fixtures/cgtrader/search_chair.json).
 * Its search takes one as `file_types[]=<id>` (models offering that format): clients send 12 for obj and 117 for gltf.
 */
const FILE_TYPES: Record<string, number> = { "3ds": 2, fbx: 5, c4d: 6, obj: 12, max: 17, blend: 21, stl: 51, gltf: 117, usdz: 127 };

/** One wanted format's id, or none: whether several `file_types[]` mean any or all of them is not known. */
const fileType = ({ format }: SearchFilters) => mapOne(format, (f) => FILE_TYPES[f]);

/** The AWS WAF challenge (202) or any answer carrying its marks. */
const WAF_MARKS = /awsWafCookieDomainList|gokuProps|\.awswaf\.com\/|challenge-container/;
const isChallenge = (res: TextResponse) => res.status === 202 || Boolean(res.headers["x-amzn-waf-action"]) || WAF_MARKS.test(res.text.slice(0, 4000));

/** GET without the cache (see the header comment), with the bot wall turned into one clear error. */
async function fetchPage(url: string, accept: string, io: SourceIo): Promise<TextResponse> {
  const blocked = (status: number) => new SourceError(ID, "refused", `blocked by the site's bot challenge (HTTP ${status})`, url, { status });
  // 405 is AWS WAF's CAPTCHA answer; the client drops error bodies, so the status is all there is.
  const request = io.text(url, { accept }, { cache: false });
  const res = await request.catch((err: { status?: number }) => Promise.reject(err.status === 405 ? blocked(405) : err));
  if (isChallenge(res)) throw blocked(res.status);
  return res;
}

async function listing(url: string, io: SourceIo): Promise<{ items: Item[]; total: number }> {
  const body = parseJson((await fetchPage(url, "application/json", io)).text);
  if (body === undefined) throw shapeError(ID, url, "listing did not answer JSON");
  const page = Listing.safeParse(body).data;
  if (!page) throw shapeError(ID, url, "listing JSON has no data array or meta.totalCount");
  const items = page.data.flatMap((raw) => Item.safeParse(raw).data ?? []);
  if (page.data.length && !items.length) throw shapeError(ID, url, "no listing item has the expected shape");
  return { items, total: page.meta.totalCount };
}

/** Distinct format names, lower case without a leading dot; names that are no file format left out. */
const formatsOf = (names: Array<string | null | undefined>) => [
  ...new Set(names.map((n) => (n ?? "").trim().replace(/^\./, "").toLowerCase()).filter((f) => /^[a-z0-9]+$/.test(f) && !NOT_FORMATS.has(f))),
];

function toAsset({ attributes: a }: Item): Asset {
  return asset(a.url, {
    title: a.title,
    description: a.description?.trim(),
    type: "model",
    categories: [a.categoryTitle, a.subcategoryTitle].filter((c): c is string => Boolean(c)),
    url: pageUrlOf(a.url),
    thumbnailUrl: a.schemaImageUrl ?? a.primaryImage?.gridUrl ?? a.primaryImage?.gridFallbackUrl,
    // Listing prices are US dollars (the site's currency); the sale discount is not applied.
    price: a.price == null ? undefined : a.price > 0 ? { free: false, amount: a.price, currency: "USD" } : { free: true },
    formats: formatsOf((a.metaverseFormatsList ?? []).map((f) => f.name)),
    animated: a.modelInfo?.types?.animated,
    rigged: a.modelInfo?.types?.rigged,
    downloadable: false,
  });
}

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  if ((query.types.length && !query.types.includes("model")) || query.downloadable) return { assets: [] }; // models only, none downloadable
  const { items, total } = await collectWindow(query, PAGE_SIZE, io, (page) => listing(listingUrl(query.q, query.free, page, fileType(query.filters)), io));
  return { assets: items.map(toAsset), ...compact({ total, searchUrl: searchUrl(query) }) };
}

/** The licence of a code; its URL that of the page's images, else the site's terms for royalty-free ones. */
function license(code: string | null | undefined, imageUrl: string | null | undefined): License | undefined {
  if (!code) return undefined;
  const url = imageUrl ?? (code.startsWith("royalty_free") ? `${SITE}/pages/terms-and-conditions#royalty-free-license` : undefined);
  const name = LICENSE_NAMES[code.replace(/_no_ai$/, "")];
  return name ? compact({ name: code.endsWith("_no_ai") ? `${name} (no AI use)` : name, url }) : normalizeLicense(code.replace(/_/g, " "), url);
}

/** Text of a description's HTML, paragraphs and line breaks kept as new lines. */
function htmlText(html: string): string {
  const $ = loadHtml(html, null, false);
  $("br").replaceWith("\n");
  $("p, li, div").after("\n");
  return $.text()
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const stripTitle = (title: string) => title.replace(/\s*\|\s*(?:free\s+)?3d\s+model\s*$/i, "").trim();

/** Detail page → AssetDetails; files are login links to the page, one per format. */
export function parseProductPage(html: string, pageUrl: string, nativeId: string): AssetDetails {
  const $ = loadHtml(html);
  const product = jsonLd($).flatMap((node) => Product.safeParse(node).data ?? [])[0]; // alone, in a list or in an `@graph`
  const props = Props.safeParse(parseJson($('[data-react-class="ItemPage/TopSection/TopSection"]').attr("data-react-props") ?? "")).data;
  if (!product && !props) throw shapeError(ID, pageUrl, "product page has neither JSON-LD Product nor item props");
  const title = stripTitle(product?.name ?? metaContent($, "og:title") ?? "") || props?.pricingArea?.title?.replace(/\s+(?:free\s+)?3d\s+model$/i, "").trim();
  if (!title) throw shapeError(ID, pageUrl, "product page has no title");
  const { detailsArea: details, descriptionArea: about, pricingArea: pricing } = props ?? {};
  const amount = Number(product?.offers?.price);
  const free = pricing?.free ?? (Number.isFinite(amount) ? amount === 0 : undefined);
  const paid = Number.isFinite(amount) && amount > 0 ? { amount, currency: product?.offers?.priceCurrency ?? "USD" } : {};
  const formats = formatsOf([...(details?.nativeFormats ?? []), ...(details?.exchangeFormats ?? [])].map((f) => f.title));
  const slug = nativeId.split("~").at(-1);
  const files = formats.map((f) => ({ url: pageUrl, filename: `${slug}.${f}`, format: f, group: IMAGE_FORMATS.has(f) ? "textures" : f, requiresAuth: true }));
  return {
    files,
    ...asset(nativeId, {
      title,
      description: about?.description ? htmlText(about.description) : undefined,
      type: "model",
      tags: about?.relatedTags?.map((t) => t.text),
      // "3D Models" / "Free 3D Models" › category › subcategory › the item itself.
      categories: about?.breadcrumbs?.slice(1, -1).flatMap((c) => c.title.trim() || []),
      url: pageUrl,
      thumbnailUrl: metaContent($, "og:image") ?? product?.image?.[0]?.contentUrl,
      author: props?.sellerArea?.designerName ?? product?.brand?.name,
      license: license(pricing?.license, product?.image?.find((i) => i.license?.startsWith("https://"))?.license),
      price: free === undefined ? undefined : free ? { free } : { free, ...paid },
      formats,
      polyCount: round(details?.polygons),
      animated: details?.animated,
      rigged: details?.rigged,
      downloadable: false,
      createdAt: details?.publishDate && !Number.isNaN(Date.parse(details.publishDate)) ? details.publishDate : undefined,
    }),
  };
}

async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  const url = pageUrlOf(nativeId);
  if (nativeIdOf(url) !== nativeId) return null;
  const res = await unlessGone(fetchPage(url, "text/html", io));
  return res ? parseProductPage(res.text, url, nativeId) : null;
}

async function census(io: SourceIo): Promise<CensusBody> {
  const all = await listing(listingUrl("", false), io);
  const free = await listing(listingUrl("", true), io);
  return compact({
    total: all.total,
    atLeast: all.total === CAPPED_TOTAL || free.total === CAPPED_TOTAL ? true : undefined,
    free: free.total,
    method: "CGTrader listing JSON (/search, with and without free=1): meta.totalCount of each",
  });
}

/** The site's search page for people: the same URL as the listing JSON. */
const searchUrl = (query: SourceQuery) => listingUrl(query.q, query.free, 1, fileType(query.filters));

export const cgtrader = defineSource(
  {
    id: ID,
    name: "CGTrader",
    homepage: SITE,
    description: "Best for the widest marketplace of free and paid 3D models; downloads need a CGTrader login.",
    assetTypes: ["model"],
    access: "scrape",
    pricing: "freemium",
    supportsDownload: false,
    unit: "assets",
    // Listings carry category, formats and the animated/rigged flags; no author, licence, polygon count, date or download
    // count (those are on product pages only). No sort parameter of the /search listing is known.
    filtering: { upstream: ["format"], listed: ["category", "format", "animated", "rigged"] },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
