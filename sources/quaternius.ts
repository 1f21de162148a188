/**
 * Quaternius (https://quaternius.com): free low-poly 3D model packs by one artist. No API: the home page lists every pack as a card, so the source is
 * indexed from it; the crawl reads every pack page too, the only place of a pack's description and licence.
 * - `/` → `div.pack` cards: a `/packs/<slug>.html` link (the Patreon card links elsewhere: not a pack), an `img`,
 *   `div.PackText` (own text: the title), public tags in `div.tags`, maybe `div.new-badge`.
 * - `/packs/<slug>.html` → `og:title` ("Quaternius • <title>"), meta description (with `<b>`), `og:image`, `div.infoitem`
 *   rows (Animated: a check or x-mark icon; Formats; License link), the month in `div.titleDate`, and the download in
 *   `window.open('…')`: a Google Drive folder or an itch.io page, not a plain file (so `requiresAuth`, not downloadable).
 */
import { normalizeLicense } from "../core/model/license.ts";
import { type Asset, type AssetDetails, type AssetFile, assetMaker, compact } from "./kit/asset.ts";
import { countBy } from "./kit/census.ts";
import { monthNumber } from "./kit/dates.ts";
import { type CensusBody, defineSource } from "./kit/define.ts";
import { detailsPage, type SourceIo, shapeError } from "./kit/fetch.ts";
import { type CheerioAPI, htmlText, loadHtml, metaContent } from "./kit/html.ts";
import { readItemPages } from "./kit/item-pages.ts";
import { httpUrl } from "./kit/url.ts";

const ID = "quaternius";
const NAME = "Quaternius";
const HOME = "https://quaternius.com/";
const SLUG = /^[a-z0-9][a-z0-9_-]*$/i;
const packUrl = (slug: string) => `${HOME}packs/${slug}.html`;
const asset = assetMaker(ID);
/** What every pack is, its page read or not. */
const packFields = (slug: string) => ({ type: "model" as const, url: packUrl(slug), author: NAME, price: { free: true }, downloadable: false });

/**
 * A tag of every pack, for searches that ask for low poly: the artist's style across the catalogue. The recorded pages say
 * so where they speak of style (bestiarydungeonmonsterskit.html: "optimized low poly topology", "Optimized and low poly";
 * the home page's hidden keywords of Downtown City MegaKit end in "lowpoly").
 */
const SITE_TAGS = ["low poly"];

export type QuaterniusCard = { slug: string; title: string; url: string; thumbnailUrl?: string; tags: string[]; isNew: boolean };

/** The pack slug of a link to `/packs/<slug>.html` on quaternius.com, else undefined. */
function packSlug(href: string | undefined): string | undefined {
  const url = new URL(httpUrl(href, HOME) ?? "about:blank");
  const slug = /^\/packs\/([^/]+)\.html$/.exec(url.pathname)?.[1];
  return /^(www\.)?quaternius\.com$/.test(url.hostname) && slug && SLUG.test(slug) ? slug : undefined;
}

/** The text of a selection's own text nodes (its contents that are not elements): a card's title beside its tags, a row's label beside its value. */
const ownText = (sel: ReturnType<CheerioAPI>) => sel.contents().not("*").text().replace(/\s+/g, " ").trim();

/** Every pack card of the home page, in page order. */
export function parseHome(html: string): QuaterniusCard[] {
  const $ = loadHtml(html);
  const cards = new Map<string, QuaterniusCard>();
  for (const el of $("div.pack")) {
    const card = $(el);
    const slug = packSlug(card.find("a[href]").first().attr("href"));
    const text = card.find(".PackText").first();
    const title = ownText(text);
    if (!slug || !title || cards.has(slug)) continue;
    const tags = [...text.find(".tags")].flatMap((t) => $(t).text().trim() || []);
    const thumbnailUrl = httpUrl(card.find("img").first().attr("src"), HOME);
    cards.set(slug, { slug, title, url: packUrl(slug), thumbnailUrl, tags, isNew: card.find(".new-badge").length > 0 });
  }
  return [...cards.values()];
}

/** A card as an Asset, with its pack page's description, licence (CC0 for most, the artist's "QAL" for some), formats, Animated and month. */
function cardToAsset(card: QuaterniusCard, page?: AssetDetails): Asset {
  const tagged = (tag: string) => card.tags.some((t) => t.toLowerCase() === tag) || undefined;
  return asset(card.slug, {
    ...packFields(card.slug),
    title: card.title,
    description: page?.description,
    tags: [...new Set([...card.tags, ...SITE_TAGS])],
    thumbnailUrl: card.thumbnailUrl,
    license: page?.license,
    formats: page?.formats,
    // The public tags say so for animated or rigged packs; their absence says nothing. The page's Animated row says either.
    animated: page?.animated ?? tagged("animated"),
    rigged: tagged("rigged"),
    createdAt: page?.createdAt,
  });
}

async function listPacks(io: SourceIo): Promise<QuaterniusCard[]> {
  const cards = parseHome((await io.text(HOME)).text);
  if (!cards.length) throw shapeError(ID, HOME, `home page ${HOME} has no pack cards (page changed?)`);
  return cards;
}

/** Every pack card with what its pack page adds (see readItemPages). */
async function crawl(io: SourceIo): Promise<Asset[]> {
  const cards = await listPacks(io);
  const pages = await readItemPages(ID, cards, async (card) => parsePackPage(card.slug, (await io.text(card.url)).text));
  return cards.map((card, i) => cardToAsset(card, pages[i]));
}

/** `June 2019` → `2019-06`. */
function isoMonth(text: string): string | undefined {
  const [, name = "", year] = /([a-z]+)\s+(\d{4})/i.exec(text) ?? [];
  const month = monthNumber(name);
  return month && `${year}-${month}`;
}

/** A download link as a file entry: a Google Drive folder or an itch.io page, never a plain file. */
function linkFile(slug: string, url: string): AssetFile {
  const host = new URL(url).hostname;
  const where = /(^|\.)drive\.google\.com$/.test(host) ? "google-drive" : /(^|\.)itch\.io$/.test(host) ? "itch-io" : host.replace(/\./g, "-");
  return { url, filename: `${slug}-${where}`, format: "page", group: "archive", requiresAuth: true };
}

export function parsePackPage(slug: string, html: string): AssetDetails {
  const $ = loadHtml(html);
  const title = (metaContent($, "og:title") ?? $("title").first().text()).replace(/^\s*Quaternius\s*[•·|-]\s*/, "").trim();
  if (!title || !$(".infoitem").length) throw shapeError(ID, packUrl(slug), `pack page ${packUrl(slug)} has no title or info (page changed?)`);
  const info = (label: string) => $([...$(".infoitem")].find((el) => ownText($(el)).toLowerCase() === label));
  const animatedIcon = info("animated").find(".text-right img").attr("src") ?? "";
  const formats = [...info("formats").find(".tags")].flatMap((t) => $(t).text().trim().toLowerCase() || []);
  const licenseLink = info("license").find("a").first();
  const opened = [...$("[onclick]")].flatMap((el) => /window\.open\(\s*['"]([^'"]+)['"]/.exec($(el).attr("onclick") ?? "")?.[1] ?? []);
  const hrefs = new Set([...opened, ...Array.from($("a[href]"), (a) => $(a).attr("href") ?? "")]);
  const files = [...hrefs]
    .flatMap((href) => httpUrl(href, HOME) ?? [])
    // Only download links: the Patreon and Discord buttons are not.
    .filter((u) => /(^|\.)(drive\.google\.com|itch\.io)$/.test(new URL(u).hostname) && !/patreon|discord/i.test(u))
    .map((u) => linkFile(slug, u));
  const details = asset(slug, {
    ...packFields(slug),
    title,
    description: htmlText(metaContent($, "description") ?? ""),
    tags: [...SITE_TAGS],
    thumbnailUrl: httpUrl(metaContent($, "og:image"), HOME),
    license: normalizeLicense(licenseLink.text().trim() || undefined, httpUrl(licenseLink.attr("href"), HOME)),
    formats: [...new Set(formats)],
    animated: /check/.test(animatedIcon) ? true : /xmark/.test(animatedIcon) ? false : undefined,
    createdAt: isoMonth($(".titleDate").first().text()),
  });
  return { ...details, files };
}

const getAsset = async (slug: string, io: SourceIo) => (SLUG.test(slug) ? detailsPage(io, packUrl(slug), (html) => parsePackPage(slug, html)) : null);

async function census(io: SourceIo): Promise<CensusBody> {
  const cards = await listPacks(io);
  // compact: no highlights when no card is new.
  return compact({
    total: cards.length,
    free: cards.length,
    byType: { model: cards.length },
    categories: countBy(cards, (card) => card.tags),
    highlights: cards.filter((c) => c.isNew).map((c) => ({ label: "New pack", title: c.title, url: c.url })),
    method:
      "quaternius.com home page: every pack card counted (the Patreon card is not a pack); categories are the cards' public tags; " +
      "licences are per pack page and not counted",
  });
}

export const quaternius = defineSource(
  {
    id: ID,
    name: NAME,
    homepage: HOME,
    description: "Best for free low-poly 3D model packs (nature, characters, vehicles, kits), mostly CC0.",
    assetTypes: ["pack", "model"],
    access: "scrape",
    pricing: "free",
    supportsDownload: false,
    unit: "packs",
  },
  // The site has no search address (its home page filters in the browser): the home page.
  { mode: "indexed", searchUrl: () => HOME, crawl, getAsset, census },
);
