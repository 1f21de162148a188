/**
 * HDRI Hub (https://www.hdri-hub.com): a shop of HDRI maps for architectural visualisation (plus backplates, bundles and a few
 * free 3D people), priced per resolution; every file is sold, so each is a link to its product page. Live: its own search page.
 * - `/search?q=<q>`: a Next.js page whose results are streamed (a card finished later leaves a `<template id="P:n">` whose
 *   content is in `<div hidden id="S:n">`). Class names carry build hashes: matched by prefix. No paging was seen.
 * - `/shop/<section>/…/<slug>`: a Product JSON-LD with an AggregateOffer (one offer per resolution) and tag links.
 * - `/shop/hdri`: an ItemList JSON-LD with `numberOfItems` (the census: there is no recorded sitemap).
 */

import { type Asset, type AssetDetails, type AssetType, assetMaker, compact } from "./kit/asset.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { detailsPage, type SourceIo, shapeError } from "./kit/fetch.ts";
import { NO_FILTERS } from "./kit/filters.ts";
import { type CheerioAPI, isJsonLdType, type JsonLdNode, jsonLd, loadHtml } from "./kit/html.ts";
import { parsePrice, priceFrom } from "./kit/price.ts";
import { pixelsToK } from "./kit/texture-sites.ts";
import { httpUrl, slugify } from "./kit/url.ts";

const ID = "hdrihub";
const SITE = "https://www.hdri-hub.com";
const CATEGORY = `${SITE}/shop/hdri`;
const asset = assetMaker(ID);

/** The type of a product by its shop path: `/shop/hdri/…` HDRIs, bundles packs, 3D people models. */
export function typeOfPath(path: string): AssetType {
  const parts = path.replace(/^\/+|\/+$/g, "").split("/");
  const [shop, section = "", sub = ""] = parts;
  if (shop !== "shop") return "other";
  const names = `${section}/${sub}`.toLowerCase();
  if (/bundle|pack/.test(sub.toLowerCase()) || /\bhdr-pack-/.test(parts.at(-1) ?? "")) return "pack";
  if (/(^|[/-])3d([/-]|$)|3d-model|3d-people/.test(names)) return "model";
  if (/hdri/.test(section.toLowerCase())) return "hdri";
  return /texture/.test(names) ? "texture" : "other";
}

/** `/shop/hdri/space/hdr-180-8` ⇄ `hdri~space~hdr-180-8` (ids avoid "/"). */
const nativeIdOf = (path: string) => path.replace(/^\/shop\/|\/+$/g, "").replaceAll("/", "~");
const pathOf = (nativeId: string) => `/shop/${nativeId.replaceAll("~", "/")}`;

/** A Next.js image URL (`/_next/image?url=%2Fapi%2Fmedia%2Ffile%2F…&w=828`) → the image itself. */
function imageOf(src: string | undefined): string | undefined {
  const url = httpUrl(src, SITE);
  const inner = url && new URL(url).pathname === "/_next/image" ? new URL(url).searchParams.get("url") : null;
  return inner ? httpUrl(inner, SITE) : url;
}

/** The search page: the count ("Found 8 products"), or 0 for the no-results block, and the result cards. */
export function parseSearch(html: string, url?: string): { found: number; assets: Asset[] } {
  const $ = loadHtml(html);
  $("template[id^='P:']").each((_, el) => {
    const segment = $(`[id='S:${($(el).attr("id") ?? "").slice(2)}']`);
    if (segment.length) $(el).replaceWith(segment.remove().html() ?? "");
  });
  const assets: Asset[] = [];
  for (const el of $("a[class*='search_card']").toArray()) {
    const card = $(el);
    const href = httpUrl(card.attr("href"), SITE);
    const path = href && new URL(href).hostname === new URL(SITE).hostname ? new URL(href).pathname : "";
    if (!/^\/shop(\/[a-z0-9][a-z0-9_-]*)+$/i.test(path)) continue;
    const img = card.find("img").first();
    const title = card.find("[class*='search_title']").first().text().trim() || img.attr("alt")?.trim();
    if (!title) continue;
    // A card without a price element has it as the bare text of its info block.
    const bare = card.find("[class*='search_info']").first().contents();
    const price = card.find("[class*='search_price']").first().text().trim() || bare.filter((_, n) => n.type === "text").text();
    const thumbnailUrl = imageOf(img.attr("src"));
    assets.push(asset(nativeIdOf(path), { title, type: typeOfPath(path), url: `${SITE}${path}`, thumbnailUrl, price: parsePrice(price), downloadable: false }));
  }
  const count = /(\d[\d,]*)/.exec($("[class*='search_count']").first().text())?.[1];
  if (count) return { found: Number(count.replace(/,/g, "")), assets };
  if ($("[class*='search_empty']").length) return { found: 0, assets: [] };
  throw shapeError(ID, url, "search page has neither a result count nor the no-results block (page changed?)");
}

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  const url = searchUrl(query);
  const { found, assets } = parseSearch((await io.text(url)).text, url);
  // The site has no type or price filter: both are applied to the page's cards. Nothing here is a direct download.
  const kept = assets.filter((a) => (!query.types.length || query.types.includes(a.type)) && (!query.free || a.price?.free === true));
  const page = query.downloadable ? [] : kept.slice(query.offset, query.offset + query.limit);
  return { assets: page, ...compact({ total: query.types.length || query.free || query.downloadable ? undefined : found }), searchUrl: url };
}

/** The page's JSON-LD nodes; a block that is not JSON means the page changed. */
const nodesOf = ($: CheerioAPI, url: string) =>
  jsonLd($, () => {
    throw shapeError(ID, url, `${url} has a JSON-LD block that is not JSON`);
  });
const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : typeof v === "string" && /^\d+(\.\d+)?$/.test(v) ? Number(v) : undefined);
/** "4096px" → 4k, "12288px" → 12k, "Cubemap 6x 2048" → 2k (per face). */
const resolutionOfOffer = (name: string) => pixelsToK(Number(/(\d{3,6})\s*px/i.exec(name)?.[1] ?? /(\d{3,6})\s*$/.exec(name)?.[1]));

function parseProduct(path: string, html: string): AssetDetails {
  const $ = loadHtml(html);
  const pageUrl = `${SITE}${path}`;
  const product = nodesOf($, pageUrl).find((n) => isJsonLdType(n, "Product"));
  const title = str(product?.name);
  if (!product || !title) throw shapeError(ID, pageUrl, `product page ${pageUrl} has no Product JSON-LD (page changed?)`);
  const offer = (product.offers ?? {}) as JsonLdNode;
  const offers = (Array.isArray(offer.offers) ? offer.offers : isJsonLdType(offer, "Offer") ? [offer] : []) as JsonLdNode[];
  const low = num(offer.lowPrice) ?? num(offer.price);
  const files = offers.flatMap(({ name, url }) => {
    const label = str(name);
    if (!label) return [];
    const filename = `${path.split("/").pop()}-${slugify(label)}`;
    const group = /cubemap/i.test(label) ? "cubemap" : "hdri";
    return [compact({ url: httpUrl(str(url), SITE) ?? pageUrl, filename, format: "page", resolution: resolutionOfOffer(label), group, requiresAuth: true })];
  });
  const details = asset(nativeIdOf(path), {
    title,
    description: str(product.description),
    type: typeOfPath(path),
    tags: Array.from($("a[class*='page_tag']"), (a) => $(a).text().trim()).filter(Boolean),
    categories: [str(product.category)].filter((c) => c !== undefined),
    url: httpUrl(str(product.url), SITE) ?? pageUrl,
    thumbnailUrl: httpUrl([product.image].flat().map(str).find(Boolean), SITE),
    author: str((product.brand as JsonLdNode | undefined)?.name),
    price: product.isAccessibleForFree === true ? { free: true } : priceFrom(low, str(offer.priceCurrency)),
    resolutions: [...new Set(files.flatMap((f) => (f.group === "hdri" && f.resolution ? [f.resolution] : [])))],
    downloadable: false,
  });
  return { ...details, files };
}

async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  const path = pathOf(nativeId);
  return /^[a-z0-9][a-z0-9_-]*(~[a-z0-9][a-z0-9_-]*)+$/i.test(nativeId) ? detailsPage(io, `${SITE}${path}`, (html) => parseProduct(path, html)) : null;
}

async function census(io: SourceIo): Promise<CensusBody> {
  const list = nodesOf(loadHtml((await io.text(CATEGORY)).text), CATEGORY).find((n) => isJsonLdType(n, "ItemList"));
  const count = num(list?.numberOfItems);
  if (count === undefined) throw shapeError(ID, CATEGORY, `${CATEGORY} has no ItemList numberOfItems (page changed?)`);
  const total = Math.round(count);
  const method =
    "numberOfItems of the schema.org ItemList on the HDRI category page (/shop/hdri); no sitemap was recorded, " +
    "so the other shop sections are not counted (a lower bound)";
  return { total, atLeast: true, byType: { hdri: total }, categories: { HDRI: total }, method };
}

const searchUrl = (query: SourceQuery) => `${SITE}/search?q=${encodeURIComponent(query.q.trim())}`;

export const hdrihub = defineSource(
  {
    id: ID,
    name: "HDRI Hub",
    homepage: SITE,
    description: "Best for high-dynamic-range HDRI maps for architectural visualisation, sold per resolution (a few free samples).",
    assetTypes: ["hdri", "pack", "model", "other"],
    access: "scrape",
    pricing: "paid",
    supportsDownload: false,
    unit: "assets",
    // Search cards carry only title, type, link, picture and price: no filter or data sort can be applied to them.
    filtering: NO_FILTERS,
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
