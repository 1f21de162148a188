/**
 * HDRI Hub (https://www.hdri-hub.com): a shop of HDRI maps for architectural visualisation (plus
 * backplates, bundles and a few free 3D people), priced per resolution. Live: its own search page.
 *
 * Upstream shapes used here:
 * - `/search?q=<q>` → a Next.js page whose results are streamed (React Server Components): the
 *   results block arrives in `<div hidden id="S:0">`, and a card finished later leaves a
 *   `<template id="P:n">` placeholder whose content is in `<div hidden id="S:n">`. The placeholders
 *   are filled in before reading. In the block: "Found <n> products" (`search_count…`), or a
 *   `search_empty…` block; cards are `a.search_card…` (link `/shop/<section>/…/<slug>`, `img` through
 *   `/_next/image?url=…`, `h3.search_title…`, and a price `p.search_price…` "From €9", or a bare "0"
 *   for free samples). Class names carry build hashes, so they are matched by prefix. The sidebar's
 *   featured card is not a result. No paging was seen: one page is read and sliced.
 * - `/shop/<section>/…/<slug>` → a Product JSON-LD with an AggregateOffer (one offer per resolution,
 *   "4096px", "12288px", "Cubemap 6x 2048" …), `isAccessibleForFree`, `category`, and tag links.
 *   Every file is sold, so every file is a link to the product page that needs a purchase.
 * - `/shop/hdri` → an ItemList JSON-LD with `numberOfItems` (the census: there is no recorded sitemap).
 */
import * as cheerio from "cheerio";
import type { Source, SourceContext, SourceQuery, SourceSearchResult } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, AssetType, SourceCensus } from "../core/schemas/index.ts";
import { unlessGone } from "./kit/fetch.ts";
import { httpUrl } from "./kit/url.ts";

const ID = "hdrihub";
const NAME = "HDRI Hub";
const SITE = "https://www.hdri-hub.com";
const CATEGORY = `${SITE}/shop/hdri`;

const CURRENCIES: Record<string, string> = { "€": "EUR", $: "USD", "£": "GBP" };
const SEGMENT = /^[a-z0-9][a-z0-9_-]*$/i;

/** The type of a product by its shop path: `/shop/hdri/…` HDRIs, bundles packs, 3D people models. */
export function typeOfPath(path: string): AssetType {
  const parts = path.replace(/^\/+|\/+$/g, "").split("/");
  const [shop, section = "", sub = ""] = parts;
  if (shop !== "shop") return "other";
  const names = `${section}/${sub}`.toLowerCase();
  if (/bundle|pack/.test(sub.toLowerCase()) || /\bhdr-pack-/.test(parts.at(-1) ?? "")) return "pack";
  if (/(^|[/-])3d([/-]|$)|3d-model|3d-people/.test(names)) return "model";
  if (/hdri/.test(section.toLowerCase())) return "hdri";
  if (/texture/.test(names)) return "texture";
  return "other";
}

/** `/shop/hdri/space/hdr-180-8` ⇄ `hdri~space~hdr-180-8` (ids avoid "/"). */
const nativeIdOf = (path: string) => path.replace(/^\/shop\/|\/+$/g, "").split("/").join("~");
const pathOf = (nativeId: string) => `/shop/${nativeId.split("~").join("/")}`;

/** A Next.js image URL (`/_next/image?url=%2Fapi%2Fmedia%2Ffile%2F…&w=828`) → the image itself. */
function imageOf(src: string | undefined): string | undefined {
  const url = httpUrl(src, SITE);
  if (!url) return undefined;
  const parsed = new URL(url);
  const inner = parsed.pathname === "/_next/image" ? parsed.searchParams.get("url") : null;
  return inner ? httpUrl(inner, SITE) : url;
}

/** "From €9" → { free: false, amount: 9, currency: "EUR" }; "0" → { free: true }. */
function parsePrice(raw: string): Asset["price"] | undefined {
  const m = /([€$£])?\s*(\d+(?:[.,]\d+)?)/.exec(raw.replace(/\s+/g, " "));
  if (!m) return undefined;
  const amount = Number(m[2]!.replace(",", "."));
  if (amount === 0) return { free: true };
  const currency = m[1] ? CURRENCIES[m[1]] : undefined;
  return { free: false, amount, ...(currency ? { currency } : {}) };
}

export interface HubCard {
  path: string;
  title: string;
  thumbnailUrl?: string;
  price?: Asset["price"];
}

/** Fills the streamed placeholders: each `<template id="P:n">` takes the content of `<div hidden id="S:n">`. */
function resolveStreamed($: cheerio.CheerioAPI): void {
  $("template[id^='P:']").each((_, el) => {
    const n = ($(el).attr("id") ?? "").slice(2);
    const segment = $(`[id='S:${n}']`);
    if (segment.length) {
      $(el).replaceWith(segment.html() ?? "");
      segment.remove();
    }
  });
}

/** The search page: the count ("Found 8 products"), or 0 for the empty block, and the result cards. */
export function parseSearch(html: string): { found: number; cards: HubCard[] } {
  const $ = cheerio.load(html);
  resolveStreamed($);
  const cards: HubCard[] = [];
  $("a[class*='search_card']").each((_, el) => {
    const card = $(el);
    const href = httpUrl(card.attr("href"), SITE);
    if (!href || new URL(href).hostname !== new URL(SITE).hostname) return;
    const path = new URL(href).pathname;
    if (!path.startsWith("/shop/") || !path.split("/").slice(2).every((s) => SEGMENT.test(s))) return;
    const img = card.find("img").first();
    const title = card.find("[class*='search_title']").first().text().trim() || img.attr("alt")?.trim() || "";
    if (!title) return;
    const info = card.find("[class*='search_info']").first();
    const priceText =
      card.find("[class*='search_price']").first().text().trim() ||
      info
        .contents()
        .filter((_, n) => n.type === "text")
        .text()
        .trim();
    const price = priceText ? parsePrice(priceText) : undefined;
    const thumbnailUrl = imageOf(img.attr("src"));
    cards.push({ path, title, ...(thumbnailUrl ? { thumbnailUrl } : {}), ...(price ? { price } : {}) });
  });
  const countText = $("[class*='search_count']").first().text();
  const count = /(\d[\d,]*)/.exec(countText)?.[1];
  if (count) return { found: Number(count.replace(/,/g, "")), cards };
  if ($("[class*='search_empty']").length) return { found: 0, cards: [] };
  throw new Error("hdrihub: search page has neither a result count nor the no-results block (page changed?)");
}

function cardToAsset(card: HubCard): Asset {
  const nativeId = nativeIdOf(card.path);
  return {
    id: `${ID}:${nativeId}`,
    provider: ID,
    nativeId,
    title: card.title,
    type: typeOfPath(card.path),
    tags: [],
    url: `${SITE}${card.path}`,
    ...(card.thumbnailUrl ? { thumbnailUrl: card.thumbnailUrl } : {}),
    ...(card.price ? { price: card.price } : {}),
    downloadable: false,
  };
}

export const searchPageUrl = (q: string) => `${SITE}/search?q=${encodeURIComponent(q.trim())}`;

async function search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult> {
  const { text } = await ctx.http.getText(searchPageUrl(query.q), { signal: ctx.signal });
  const { found, cards } = parseSearch(text);
  let assets = cards.map(cardToAsset);
  // The site has no type or price filter: both are applied to the page's cards.
  const filtered = query.types.length > 0 || query.free || query.downloadable;
  if (query.types.length) assets = assets.filter((a) => query.types.includes(a.type));
  if (query.free) assets = assets.filter((a) => a.price?.free === true);
  if (query.downloadable) assets = []; // nothing here is a direct download
  return {
    assets: assets.slice(query.offset, query.offset + query.limit),
    ...(filtered ? {} : { total: found }),
    searchUrl: searchUrl(query),
  };
}

interface JsonLdNode {
  "@type"?: string | string[];
  [key: string]: unknown;
}

/** Every JSON-LD node of a page (top-level objects, arrays and `@graph`s). */
function jsonLd($: cheerio.CheerioAPI, where: string): JsonLdNode[] {
  const out: JsonLdNode[] = [];
  $("script[type='application/ld+json']").each((_, el) => {
    let data: unknown;
    try {
      data = JSON.parse($(el).text());
    } catch {
      throw new Error(`hdrihub: ${where} has a JSON-LD block that is not JSON`);
    }
    const visit = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (node && typeof node === "object") {
        out.push(node as JsonLdNode);
        if (Array.isArray((node as { "@graph"?: unknown })["@graph"])) visit((node as { "@graph": unknown[] })["@graph"]);
      }
    };
    visit(data);
  });
  return out;
}

const isType = (node: JsonLdNode, type: string) => (Array.isArray(node["@type"]) ? node["@type"].includes(type) : node["@type"] === type);
const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : typeof v === "string" && /^\d+(\.\d+)?$/.test(v) ? Number(v) : undefined);

/** "4096px" → 4k, "12288px" → 12k, "Cubemap 6x 2048" → 2k (per face). */
function resolutionOfOffer(name: string): string | undefined {
  const px = /(\d{3,6})\s*px/i.exec(name)?.[1] ?? /(\d{3,6})\s*$/.exec(name)?.[1];
  if (!px) return undefined;
  const k = Math.round(Number(px) / 1024);
  return k >= 1 ? `${k}k` : undefined;
}

/** Parses a product page into details; `path` is its shop path. */
export function parseProduct(path: string, html: string): AssetDetails {
  const $ = cheerio.load(html);
  const pageUrl = `${SITE}${path}`;
  const product = jsonLd($, pageUrl).find((n) => isType(n, "Product"));
  const title = str(product?.name);
  if (!product || !title) throw new Error(`hdrihub: product page ${pageUrl} has no Product JSON-LD (page changed?)`);

  const images = Array.isArray(product.image) ? product.image : [product.image];
  const thumbnailUrl = httpUrl(images.map(str).find(Boolean), SITE);
  const category = str(product.category);
  const offer = (product.offers ?? {}) as JsonLdNode;
  const offers = (Array.isArray(offer.offers) ? offer.offers : isType(offer, "Offer") ? [offer] : []) as JsonLdNode[];
  const low = num(offer.lowPrice) ?? num(offer.price);
  const currency = str(offer.priceCurrency);
  const free = product.isAccessibleForFree === true || low === 0;
  const tags = $("a[class*='page_tag']")
    .toArray()
    .map((a) => $(a).text().trim())
    .filter(Boolean);
  const slug = path.split("/").pop()!;

  const files: AssetFile[] = offers.flatMap((o) => {
    const name = str(o.name);
    if (!name) return [];
    const resolution = resolutionOfOffer(name);
    return [
      {
        url: httpUrl(str(o.url), SITE) ?? pageUrl,
        filename: `${slug}-${name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}`,
        format: "page",
        ...(resolution ? { resolution } : {}),
        group: /cubemap/i.test(name) ? "cubemap" : "hdri",
        requiresAuth: true,
      },
    ];
  });
  const resolutions = [...new Set(files.filter((f) => f.group === "hdri" && f.resolution).map((f) => f.resolution!))];
  const description = str(product.description);

  return {
    id: `${ID}:${nativeIdOf(path)}`,
    provider: ID,
    nativeId: nativeIdOf(path),
    title,
    ...(description ? { description } : {}),
    type: typeOfPath(path),
    tags,
    categories: category ? [category] : [],
    url: httpUrl(str(product.url), SITE) ?? pageUrl,
    ...(thumbnailUrl ? { thumbnailUrl } : {}),
    ...(str((product.brand as JsonLdNode | undefined)?.name) ? { author: str((product.brand as JsonLdNode).name)! } : {}),
    price: free ? { free: true } : { free: false, ...(low !== undefined ? { amount: low } : {}), ...(currency ? { currency } : {}) },
    ...(resolutions.length ? { resolutions } : {}),
    downloadable: false,
    files,
  };
}

async function getAsset(nativeId: string, ctx: SourceContext): Promise<AssetDetails | null> {
  const parts = nativeId.split("~");
  if (parts.length < 2 || !parts.every((p) => SEGMENT.test(p))) return null;
  const path = pathOf(nativeId);
  const page = await unlessGone(ctx.http.getText(`${SITE}${path}`, { signal: ctx.signal }));
  if (!page) return null;
  return parseProduct(path, page.text);
}

/** The HDRI category page's ItemList: `numberOfItems` HDRIs (the rest of the shop is not counted). */
async function census(ctx: SourceContext): Promise<SourceCensus> {
  const { text } = await ctx.http.getText(CATEGORY, { signal: ctx.signal });
  const list = jsonLd(cheerio.load(text), CATEGORY).find((n) => isType(n, "ItemList"));
  const count = num(list?.numberOfItems);
  if (count === undefined) throw new Error(`hdrihub: ${CATEGORY} has no ItemList numberOfItems (page changed?)`);
  const total = Math.round(count);
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total,
    // Only the HDRI category is counted: backplates, bundles and 3D models come on top.
    atLeast: true,
    byType: { hdri: total },
    categories: { HDRI: total },
    unit: "assets",
    method:
      "numberOfItems of the schema.org ItemList on the HDRI category page (/shop/hdri); no sitemap was recorded, so the other shop sections are not counted (a lower bound)",
    countedAt: ctx.now().toISOString(),
  };
}

function searchUrl(query: SourceQuery): string {
  return searchPageUrl(query.q);
}

export const hdrihub: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for high-dynamic-range HDRI maps for architectural visualisation, sold per resolution (a few free samples).",
  assetTypes: ["hdri", "pack", "model", "other"],
  access: "scrape",
  pricing: "paid",
  supportsDownload: false,
  mode: "live",
  unit: "assets",
  searchUrl,
  search,
  getAsset,
  census,
};
