/**
 * Kenney (https://kenney.nl): CC0 game-art packs (3D kits, 2D sprites, UI, audio, fonts), each a
 * direct zip. No API: the catalogue is the paged HTML listing, which is cheap, so the source is indexed.
 *
 * Upstream shapes used here:
 * - `/assets`, `/assets/page:2`, `/assets/page:3` … → `div.asset` cards (cover image in a
 *   `background-image` style, title link in `h2`, category link `/assets/category:<name>`, optional
 *   series link `/assets/series:<name>`), and a `ul.pagination` whose links name the other pages.
 *   The crawl follows pages while the pagination links to the next one.
 * - `/assets/<slug>` → the pack page: `h1` title, a table with Tags (`a.tag`), Category, Files
 *   ("330×") and License (a link), an "Updates" table whose cells carry the date as `title='dd/mm/yyyy'`,
 *   `og:image`, and the direct pack zip behind "Continue without donating…"
 *   (`https://kenney.nl/media/pages/assets/<slug>/<hash>/kenney_<slug>.zip`).
 *   The crawl reads every pack page too: only there do the tags say what a pack holds.
 */
import * as cheerio from "cheerio";
import type { Source, SourceContext, SourceQuery } from "../core/source.ts";
import type { Asset, AssetDetails, AssetType, SourceCensus } from "../core/schemas/index.ts";
import { licenseById, normalizeLicense } from "../core/license.ts";
import { unlessGone } from "./kit/fetch.ts";
import { httpUrl } from "./kit/url.ts";
import { readItemPages } from "./kit/item-pages.ts";

const ID = "kenney";
const NAME = "Kenney";
const SITE = "https://kenney.nl";
const LISTING = `${SITE}/assets`;
/** A guard against a pagination that never ends (the real listing has a few dozen pages at most). */
const MAX_PAGES = 200;

/**
 * Every Kenney pack is game art, and the site says so on its pages: the recorded pack page's
 * keywords are "Games, Software, Game assets, Assets, Gamedev" and its banner sells the packs as
 * "Kenney Game Assets All-in-1". A tag of every pack, for searches that ask for game assets.
 */
const SITE_TAGS = ["game assets"];

/** Tags in order, each once whatever its case, the first spelling kept (the series "City" before a page tag "city"). */
const uniqueTags = (tags: string[]) => tags.filter((t, i) => tags.findIndex((x) => x.toLowerCase() === t.toLowerCase()) === i);

/**
 * Kenney's categories and the asset type of a pack in each. A category we do not know yet keeps the
 * generic type "pack". ("UI" and "Fonts" are the brief's names; today's UI and font packs sit in "2D".)
 */
const TYPE_BY_CATEGORY: Record<string, AssetType> = {
  "3d": "model",
  "2d": "sprite",
  ui: "ui",
  audio: "audio",
  fonts: "font",
  font: "font",
  textures: "texture",
};

/**
 * The type of a pack: by its category; within "2D", a pack named or in a series named "UI …" is UI
 * and one named "… Font(s)" is a font pack (e.g. "UI Pack", "Kenney Fonts").
 */
export function typeOf(category: string | undefined, title = "", series = ""): AssetType {
  const type = (category && TYPE_BY_CATEGORY[category.trim().toLowerCase()]) || "pack";
  if (type !== "sprite") return type;
  const names = `${title} ${series}`;
  if (/\bUI\b/.test(names)) return "ui";
  if (/\bfonts?\b/i.test(names)) return "font";
  return type;
}

/** The listing page `n` (1-based): `/assets`, then `/assets/page:n`. */
export const listingUrl = (n: number) => (n <= 1 ? LISTING : `${LISTING}/page:${n}`);
const packUrl = (slug: string) => `${LISTING}/${encodeURIComponent(slug)}`;

/** One card of a listing (or of the site's search results, which use the same card). */
export interface KenneyCard {
  slug: string;
  title: string;
  url: string;
  thumbnailUrl?: string;
  category?: string;
  series?: string;
}

const SLUG = /^https:\/\/kenney\.nl\/assets\/([a-z0-9][a-z0-9_-]*)\/?$/i;

/** Parses every `div.asset` card of a listing page; cards without a pack link are skipped. */
export function parseCards(html: string): KenneyCard[] {
  const $ = cheerio.load(html);
  const out: KenneyCard[] = [];
  $("div.asset").each((_, el) => {
    const card = $(el);
    const link = card.find("h2 a").first();
    const url = httpUrl(link.attr("href"), SITE);
    const slug = url ? SLUG.exec(url)?.[1] : undefined;
    const title = link.text().trim();
    if (!url || !slug || !title) return;
    const style = card.find(".cover").attr("style") ?? "";
    const cover = httpUrl(/url\(\s*["']?([^"')]+)["']?\s*\)/.exec(style)?.[1], SITE);
    const linkValue = (kind: string) =>
      card
        .find("a[href]")
        .toArray()
        .map((a) => new RegExp(`[/?&]${kind}[:=]([^/?&#]+)`).exec($(a).attr("href") ?? "")?.[1])
        .find(Boolean);
    const category = linkValue("category");
    const series = linkValue("series");
    out.push({
      slug,
      title,
      url: packUrl(slug),
      ...(cover ? { thumbnailUrl: cover } : {}),
      ...(category ? { category: decode(category) } : {}),
      ...(series ? { series: decode(series) } : {}),
    });
  });
  return out;
}

/** The page numbers the pagination links to. */
function linkedPages(html: string): Set<number> {
  const $ = cheerio.load(html);
  const pages = new Set<number>();
  $("ul.pagination a[href]").each((_, a) => {
    const href = $(a).attr("href") ?? "";
    const n = /\/assets\/page:(\d+)\/?$/.exec(href)?.[1];
    if (n) pages.add(Number(n));
    else if (/\/assets\/?$/.test(href)) pages.add(1);
  });
  return pages;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A card as an Asset, with what its pack page adds when it could be read. */
function cardToAsset(card: KenneyCard, page?: AssetDetails): Asset {
  return {
    id: `${ID}:${card.slug}`,
    provider: ID,
    nativeId: card.slug,
    title: card.title,
    ...(page?.description ? { description: page.description } : {}),
    type: typeOf(card.category, card.title, card.series),
    tags: uniqueTags([...(card.series ? [card.series] : []), ...(page?.tags ?? SITE_TAGS)]),
    categories: card.category ? [card.category] : [],
    url: card.url,
    ...(card.thumbnailUrl ? { thumbnailUrl: card.thumbnailUrl } : {}),
    author: NAME,
    license: licenseById("CC0-1.0"),
    price: { free: true },
    formats: ["zip"],
    downloadable: true,
    ...(page?.createdAt ? { createdAt: page.createdAt } : {}),
  };
}

/** Every card of every listing page, in listing order (newest first), each pack once. */
async function listAll(ctx: SourceContext): Promise<{ cards: KenneyCard[]; pages: number }> {
  const cards: KenneyCard[] = [];
  const seen = new Set<string>();
  let page = 1;
  for (;;) {
    const url = listingUrl(page);
    const { text } = await ctx.http.getText(url, { signal: ctx.signal });
    const found = parseCards(text);
    if (!found.length) {
      if (page === 1) throw new Error(`kenney: listing ${url} has no asset cards (page changed?)`);
      break;
    }
    for (const card of found) {
      if (seen.has(card.slug)) continue;
      seen.add(card.slug);
      cards.push(card);
    }
    if (!linkedPages(text).has(page + 1) || page >= MAX_PAGES) break;
    page++;
  }
  return { cards, pages: page };
}

/** Every pack of the listing with its pack page's tags, description and release date (see readItemPages). */
async function crawl(ctx: SourceContext): Promise<Asset[]> {
  const { cards } = await listAll(ctx);
  const pages = await readItemPages(ID, cards, async (card) => parsePackPage(card.slug, (await ctx.http.getText(card.url, { signal: ctx.signal })).text));
  return cards.map((card, i) => cardToAsset(card, pages[i]));
}

/** `29/04/2020` → `2020-04-29`. */
function isoDay(text: string | undefined): string | undefined {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text?.trim() ?? "");
  if (!m) return undefined;
  return `${m[3]}-${m[2]!.padStart(2, "0")}-${m[1]!.padStart(2, "0")}`;
}

/** Parses a pack page into details; `slug` is the pack's own. */
export function parsePackPage(slug: string, html: string): AssetDetails {
  const $ = cheerio.load(html);
  const title = $("h1").first().text().trim();
  if (!title) throw new Error(`kenney: pack page ${packUrl(slug)} has no title (page changed?)`);

  /** The cell beside the row title `label` in the details table. */
  const row = (label: string) =>
    $("td.title")
      .filter((_, td) => $(td).text().trim().toLowerCase() === label)
      .first()
      .next("td");

  const tags = uniqueTags([
    ...row("tags")
      .find("a")
      .toArray()
      .map((a) => $(a).text().trim())
      .filter(Boolean),
    ...SITE_TAGS,
  ]);
  const category = row("category").text().trim() || undefined;
  const licenseLink = row("license").find("a").first();
  const license =
    normalizeLicense(licenseLink.text().trim() || row("license").text().trim(), httpUrl(licenseLink.attr("href"), SITE)) ??
    licenseById("CC0-1.0");
  const thumbnailUrl = httpUrl($("meta[property='og:image']").attr("content"), SITE);
  const description = $("meta[property='og:description']").attr("content")?.trim();
  const dates = $("td[title]")
    .toArray()
    .map((td) => isoDay($(td).attr("title")))
    .filter((d): d is string => Boolean(d))
    .sort();

  const zips = [
    ...new Set(
      $("a[href]")
        .toArray()
        .map((a) => httpUrl($(a).attr("href"), SITE))
        .filter((u): u is string => Boolean(u && new URL(u).hostname === "kenney.nl" && /\.zip$/i.test(new URL(u).pathname))),
    ),
  ];
  const files = zips.map((url) => ({
    url,
    filename: decode(new URL(url).pathname.split("/").pop() ?? `kenney_${slug}.zip`),
    format: "zip",
    group: "archive",
  }));

  return {
    id: `${ID}:${slug}`,
    provider: ID,
    nativeId: slug,
    title,
    ...(description ? { description } : {}),
    type: typeOf(category, title),
    tags,
    categories: category ? [category] : [],
    url: packUrl(slug),
    ...(thumbnailUrl ? { thumbnailUrl } : {}),
    author: NAME,
    license,
    price: { free: true },
    formats: ["zip"],
    downloadable: files.length > 0,
    ...(dates[0] ? { createdAt: dates[0] } : {}),
    files,
  };
}

async function getAsset(slug: string, ctx: SourceContext): Promise<AssetDetails | null> {
  if (!/^[a-z0-9][a-z0-9_-]*$/i.test(slug)) return null;
  const page = await unlessGone(ctx.http.getText(packUrl(slug), { signal: ctx.signal }));
  if (!page) return null;
  return parsePackPage(slug, page.text);
}

async function census(ctx: SourceContext): Promise<SourceCensus> {
  const { cards, pages } = await listAll(ctx);
  const byType: Record<string, number> = {};
  const categories: Record<string, number> = {};
  for (const card of cards) {
    const type = typeOf(card.category, card.title, card.series);
    byType[type] = (byType[type] ?? 0) + 1;
    if (card.category) categories[card.category] = (categories[card.category] ?? 0) + 1;
  }
  const newest = cards[0];
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total: cards.length,
    free: cards.length,
    byType,
    byLicense: { "CC0-1.0": cards.length },
    categories,
    unit: "packs",
    ...(newest ? { highlights: [{ label: "Newest pack", title: newest.title, url: newest.url }] } : {}),
    method: `kenney.nl/assets listing: every pack card of its ${pages} page${pages === 1 ? "" : "s"} counted (all packs are free and CC0)`,
    countedAt: ctx.now().toISOString(),
  };
}

/** The site's own search: `/assets?search=…`, narrowed to one category when exactly one is asked. */
function searchUrl(query: SourceQuery): string {
  const categories = new Set(
    query.types.flatMap((t) =>
      t === "model" ? ["3D"] : t === "sprite" || t === "ui" || t === "font" ? ["2D"] : t === "audio" ? ["Audio"] : t === "texture" ? ["Textures"] : [],
    ),
  );
  const params: string[] = [];
  const q = query.q.trim();
  if (q) params.push(`search=${encodeURIComponent(q)}`);
  if (categories.size === 1) params.push(`category=${encodeURIComponent([...categories][0]!)}`);
  return `${LISTING}${params.length ? `?${params.join("&")}` : ""}`;
}

export const kenney: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for free CC0 game-art packs: 3D kits, 2D sprites, UI, audio and fonts, each one direct zip.",
  assetTypes: ["pack", "model", "sprite", "ui", "audio", "font", "texture"],
  access: "scrape",
  pricing: "free",
  license: licenseById("CC0-1.0"),
  supportsDownload: true,
  mode: "indexed",
  unit: "packs",
  searchUrl,
  crawl,
  getAsset,
  census,
};
