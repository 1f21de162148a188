/**
 * Kenney (https://kenney.nl): CC0 game-art packs, each a direct zip. No API: the catalogue is the paged HTML listing, which is cheap, so the source is indexed.
 * - `/assets`, `/assets/page:<n>` → `div.asset` cards (cover in a `background-image` style, `h2` title link, links to
 *   `/assets/category:<name>` and `/assets/series:<name>`); the crawl follows the `ul.pagination` to the next page.
 * - `/assets/<slug>` → the pack page: `h1`, a details table (Tags, Category, License), update dates as `title='dd/mm/yyyy'`,
 *   `og:image`, `og:description`, the pack zip. The crawl reads every pack page: only there do tags say what a pack holds.
 */
import { licenseById, normalizeLicense } from "../core/model/license.ts";
import { type Asset, type AssetDetails, type AssetType, assetMaker, compact, uniqueWords } from "./kit/asset.ts";
import { countBy } from "./kit/census.ts";
import { type CensusBody, defineSource, type SourceQuery } from "./kit/define.ts";
import { detailsPage, type SourceIo, shapeError } from "./kit/fetch.ts";
import { sole } from "./kit/filters.ts";
import { loadHtml, metaContent } from "./kit/html.ts";
import { readItemPages } from "./kit/item-pages.ts";
import { httpUrl } from "./kit/url.ts";

const ID = "kenney";
const NAME = "Kenney";
const SITE = "https://kenney.nl";
const LISTING = `${SITE}/assets`;
/** A guard against a pagination that never ends (the real listing has a few dozen pages at most). */
const MAX_PAGES = 200;
const asset = assetMaker(ID);

/**
 * A tag of every pack, for searches that ask for game assets: every Kenney pack is game art, and the site says so
 * (pack page keywords "Games, Software, Game assets, Assets, Gamedev"; banner "Kenney Game Assets All-in-1").
 */
const SITE_TAGS = ["game assets"];

/** A pack's type by Kenney's category, "pack" for one we do not know yet ("UI" and "Fonts" are not used today: see typeOf). */
const TYPES: Record<string, AssetType> = { "3d": "model", "2d": "sprite", ui: "ui", audio: "audio", fonts: "font", font: "font", textures: "texture" };
/** The site's search category for each of our types. */
const CATEGORIES: Partial<Record<AssetType, string>> = { model: "3D", sprite: "2D", ui: "2D", font: "2D", audio: "Audio", texture: "Textures" };

/**
 * The type of a pack: by its category; within "2D", a pack named or in a series named "UI …" is UI
 * and one named "… Font(s)" is a font pack (e.g. "UI Pack", "Kenney Fonts").
 */
export function typeOf(category: string | undefined, title = "", series = ""): AssetType {
  const type = (category && TYPES[category.trim().toLowerCase()]) || "pack";
  if (type !== "sprite") return type;
  return /\bUI\b/.test(`${title} ${series}`) ? "ui" : /\bfonts?\b/i.test(`${title} ${series}`) ? "font" : type;
}

export const listingUrl = (n: number) => (n <= 1 ? LISTING : `${LISTING}/page:${n}`);
const packUrl = (slug: string) => `${LISTING}/${encodeURIComponent(slug)}`;
/** What every pack is, its page read or not. */
const packFields = (slug: string) => ({ url: packUrl(slug), author: NAME, price: { free: true }, formats: ["zip"] });

/** One card of a listing (or of the site's search results, which use the same card). */
export type KenneyCard = { slug: string; title: string; url: string; thumbnailUrl?: string; category?: string; series?: string };

const SLUG = /^https:\/\/kenney\.nl\/assets\/([a-z0-9][a-z0-9_-]*)\/?$/i;

function decode(text: string | undefined): string | undefined {
  try {
    return text && decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Parses every `div.asset` card of a listing page; cards without a pack link are skipped. */
export function parseCards(html: string): KenneyCard[] {
  const $ = loadHtml(html);
  return [...$("div.asset")].flatMap((el) => {
    const card = $(el);
    const link = card.find("h2 a").first();
    const slug = SLUG.exec(httpUrl(link.attr("href"), SITE) ?? "")?.[1];
    const title = link.text().trim();
    if (!slug || !title) return [];
    const cover = /url\(\s*["']?([^"')]+)["']?\s*\)/.exec(card.find(".cover").attr("style") ?? "")?.[1];
    const hrefs = Array.from(card.find("a[href]"), (a) => $(a).attr("href") ?? "");
    const linked = (kind: string) => decode(hrefs.map((href) => new RegExp(`[/?&]${kind}[:=]([^/?&#]+)`).exec(href)?.[1]).find(Boolean));
    return [compact({ slug, title, url: packUrl(slug), thumbnailUrl: httpUrl(cover, SITE), category: linked("category"), series: linked("series") })];
  });
}

function linksToPage(html: string, n: number): boolean {
  const $ = loadHtml(html);
  return [...$("ul.pagination a[href]")].some((a) => new RegExp(`/assets/page:${n}/?$`).test($(a).attr("href") ?? ""));
}

/** A card as an Asset, with what its pack page adds when it could be read. */
function cardToAsset(card: KenneyCard, page?: AssetDetails): Asset {
  return asset(card.slug, {
    ...packFields(card.slug),
    title: card.title,
    description: page?.description,
    type: typeOf(card.category, card.title, card.series),
    tags: uniqueWords([card.series ?? "", ...(page?.tags ?? SITE_TAGS)]), // the series "City" before a page tag "city"
    categories: card.category ? [card.category] : [],
    thumbnailUrl: card.thumbnailUrl,
    license: licenseById("CC0-1.0"),
    downloadable: true,
    createdAt: page?.createdAt,
  });
}

/** Every card of every listing page, in listing order (newest first), each pack once. */
async function listAll(io: SourceIo): Promise<{ cards: KenneyCard[]; pages: number }> {
  const cards = new Map<string, KenneyCard>();
  let page = 1;
  for (; ; page++) {
    const url = listingUrl(page);
    const { text } = await io.text(url);
    const found = parseCards(text);
    if (!found.length && page === 1) throw shapeError(ID, url, `listing ${url} has no asset cards (page changed?)`);
    for (const card of found) if (!cards.has(card.slug)) cards.set(card.slug, card);
    if (!found.length || !linksToPage(text, page + 1) || page >= MAX_PAGES) break;
  }
  return { cards: [...cards.values()], pages: page };
}

/** Every pack of the listing with its pack page's tags, description and release date (see readItemPages). */
async function crawl(io: SourceIo): Promise<Asset[]> {
  const { cards } = await listAll(io);
  const pages = await readItemPages(ID, cards, async (card) => parsePackPage(card.slug, (await io.text(card.url)).text));
  return cards.map((card, i) => cardToAsset(card, pages[i]));
}

/** `29/04/2020` → `2020-04-29`. */
function isoDay(text = ""): string | undefined {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  return m ? `${m[3]}-${m[2]!.padStart(2, "0")}-${m[1]!.padStart(2, "0")}` : undefined;
}

export function parsePackPage(slug: string, html: string): AssetDetails {
  const $ = loadHtml(html);
  const url = packUrl(slug);
  const title = $("h1").first().text().trim();
  if (!title) throw shapeError(ID, url, `pack page ${url} has no title (page changed?)`);
  /** The cell beside the row title `label` in the details table. */
  const row = (label: string) => $([...$("td.title")].find((td) => $(td).text().trim().toLowerCase() === label)).next("td");
  const category = row("category").text().trim() || undefined;
  const licenseLink = row("license").find("a").first();
  const license = normalizeLicense(licenseLink.text().trim() || row("license").text().trim(), httpUrl(licenseLink.attr("href"), SITE));
  const links = [...$("a[href]")].flatMap((a) => httpUrl($(a).attr("href"), SITE) ?? []);
  const zips = new Set(links.filter((u) => new URL(u).hostname === "kenney.nl" && /\.zip$/i.test(new URL(u).pathname)));
  const files = [...zips].map((zip) => {
    const filename = decode(new URL(zip).pathname.split("/").pop()) ?? `kenney_${slug}.zip`;
    return { url: zip, filename, format: "zip", group: "archive" };
  });
  const details = asset(slug, {
    ...packFields(slug),
    title,
    description: metaContent($, "og:description"),
    type: typeOf(category, title),
    tags: uniqueWords([...Array.from(row("tags").find("a"), (a) => $(a).text().trim()), ...SITE_TAGS]),
    categories: category ? [category] : [],
    thumbnailUrl: httpUrl(metaContent($, "og:image"), SITE),
    license: license ?? licenseById("CC0-1.0"),
    downloadable: files.length > 0,
    createdAt: [...$("td[title]")].flatMap((td) => isoDay($(td).attr("title")) ?? []).sort()[0],
  });
  return { ...details, files };
}

const getAsset = async (slug: string, io: SourceIo) =>
  /^[a-z0-9][a-z0-9_-]*$/i.test(slug) ? detailsPage(io, packUrl(slug), (html) => parsePackPage(slug, html)) : null;

async function census(io: SourceIo): Promise<CensusBody> {
  const { cards, pages } = await listAll(io);
  return {
    total: cards.length,
    free: cards.length,
    byType: countBy(cards, (card) => typeOf(card.category, card.title, card.series)),
    categories: countBy(cards, (card) => card.category),
    // The listing is newest first, and has cards (else listAll throws).
    highlights: cards.slice(0, 1).map((newest) => ({ label: "Newest pack", title: newest.title, url: newest.url })),
    method: `kenney.nl/assets listing: every pack card of its ${pages} page${pages === 1 ? "" : "s"} counted (all packs are free and CC0)`,
  };
}

/** The site's own search: `/assets?search=…`, narrowed to one category when exactly one is asked. */
function searchUrl(query: SourceQuery): string {
  const category = sole(query.types.flatMap((t) => CATEGORIES[t] ?? []));
  const qs = [query.q.trim() && `search=${encodeURIComponent(query.q.trim())}`, category && `category=${encodeURIComponent(category)}`].filter(Boolean);
  return `${LISTING}${qs.length ? `?${qs.join("&")}` : ""}`;
}

export const kenney = defineSource(
  {
    id: ID,
    name: NAME,
    homepage: SITE,
    description: "Best for free CC0 game-art packs: 3D kits, 2D sprites, UI, audio and fonts, each one direct zip.",
    assetTypes: ["pack", "model", "sprite", "ui", "audio", "font", "texture"],
    access: "scrape",
    pricing: "free",
    license: licenseById("CC0-1.0"),
    supportsDownload: true,
    unit: "packs",
  },
  { mode: "indexed", searchUrl, crawl, getAsset, census },
);
