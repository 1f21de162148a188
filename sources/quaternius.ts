/**
 * Quaternius (https://quaternius.com): free low-poly 3D model packs by one artist. No API: the home
 * page lists every pack as a card, so the source is indexed from that one page.
 *
 * Upstream shapes used here:
 * - `/` → `div.pack` cards: a link to `/packs/<slug>.html` around `img.gallery-img` (the thumbnail),
 *   `div.PackText` whose own text is the title, public tags in `div.tags`, an optional `div.new-badge`,
 *   and hidden search keywords run together in a `<noscript>` (not split into tags: they are not words).
 *   Cards that link elsewhere (the Patreon "All In One File" card) are not packs and are skipped.
 * - `/packs/<slug>.html` → `og:title` ("Quaternius • <title>"), a meta description (with `<b>`),
 *   `og:image`, `div.infoitem` rows (Models count, Animated/Textured as check or x-mark icons,
 *   Formats tags, License link: CC0 for most packs, the artist's own "QAL" for some), the release
 *   month in `div.titleDate`, and the download behind `window.open('…')`: a Google Drive folder or
 *   an itch.io page. Neither is a plain file, so every file is `requiresAuth` and nothing is downloadable.
 *   The crawl reads every pack page too: only there are a pack's description and licence.
 */
import * as cheerio from "cheerio";
import type { Source, SourceContext, SourceQuery } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, SourceCensus } from "../core/schemas/index.ts";
import { normalizeLicense } from "../core/license.ts";
import { unlessGone } from "./kit/fetch.ts";
import { httpUrl } from "./kit/url.ts";
import { readItemPages } from "./kit/item-pages.ts";

const ID = "quaternius";
const NAME = "Quaternius";
const SITE = "https://quaternius.com";
const HOME = `${SITE}/`;

const SLUG = /^[a-z0-9][a-z0-9_-]*$/i;
const packUrl = (slug: string) => `${SITE}/packs/${slug}.html`;

/**
 * Every Quaternius pack is low poly, the artist's style across the catalogue; the recorded pages say
 * so where they speak of style (bestiarydungeonmonsterskit.html: "optimized low poly topology",
 * "Optimized and low poly"; the home page's hidden keywords of Downtown City MegaKit end in
 * "lowpoly"). A tag of every pack, for searches that ask for low poly.
 */
const SITE_TAGS = ["low poly"];

export interface QuaterniusCard {
  slug: string;
  title: string;
  url: string;
  thumbnailUrl?: string;
  tags: string[];
  isNew: boolean;
}

/** The pack slug of a link to `/packs/<slug>.html` on quaternius.com, else undefined. */
function packSlug(href: string | undefined): string | undefined {
  const url = httpUrl(href, HOME);
  if (!url) return undefined;
  const { hostname, pathname } = new URL(url);
  if (hostname !== "quaternius.com" && hostname !== "www.quaternius.com") return undefined;
  const slug = /^\/packs\/([^/]+)\.html$/.exec(pathname)?.[1];
  return slug && SLUG.test(slug) ? slug : undefined;
}

/** Every pack card of the home page, in page order. */
export function parseHome(html: string): QuaterniusCard[] {
  const $ = cheerio.load(html);
  const out: QuaterniusCard[] = [];
  const seen = new Set<string>();
  $("div.pack").each((_, el) => {
    const card = $(el);
    const slug = packSlug(card.find("a[href]").first().attr("href"));
    if (!slug || seen.has(slug)) return;
    const text = card.find(".PackText").first();
    const title = text
      .contents()
      .filter((_, node) => node.type === "text")
      .text()
      .replace(/\s+/g, " ")
      .trim();
    if (!title) return;
    seen.add(slug);
    const tags = text
      .find(".tags")
      .toArray()
      .map((t) => $(t).text().trim())
      .filter(Boolean);
    const thumbnailUrl = httpUrl(card.find("img").first().attr("src"), HOME);
    out.push({
      slug,
      title,
      url: packUrl(slug),
      ...(thumbnailUrl ? { thumbnailUrl } : {}),
      tags,
      isNew: card.find(".new-badge").length > 0,
    });
  });
  return out;
}

/**
 * A card as an Asset, with what its pack page adds when it could be read: description, licence (per
 * pack: CC0 for most, the artist's "QAL" for some), formats, the Animated row and the release month.
 */
function cardToAsset(card: QuaterniusCard, page?: AssetDetails): Asset {
  // The public tags say so for animated or rigged packs; their absence says nothing. The page's Animated row says either.
  const animated = page?.animated ?? (card.tags.some((t) => /^animated$/i.test(t)) ? true : undefined);
  return {
    id: `${ID}:${card.slug}`,
    provider: ID,
    nativeId: card.slug,
    title: card.title,
    ...(page?.description ? { description: page.description } : {}),
    type: "model",
    tags: [...new Set([...card.tags, ...SITE_TAGS])],
    url: card.url,
    ...(card.thumbnailUrl ? { thumbnailUrl: card.thumbnailUrl } : {}),
    author: NAME,
    ...(page?.license ? { license: page.license } : {}),
    price: { free: true },
    ...(page?.formats ? { formats: page.formats } : {}),
    ...(animated !== undefined ? { animated } : {}),
    ...(card.tags.some((t) => /^rigged$/i.test(t)) ? { rigged: true } : {}),
    downloadable: false,
    ...(page?.createdAt ? { createdAt: page.createdAt } : {}),
  };
}

async function listPacks(ctx: SourceContext): Promise<QuaterniusCard[]> {
  const { text } = await ctx.http.getText(HOME, { signal: ctx.signal });
  const cards = parseHome(text);
  if (!cards.length) throw new Error(`quaternius: home page ${HOME} has no pack cards (page changed?)`);
  return cards;
}

/** Every pack card with what its pack page adds (see readItemPages). */
async function crawl(ctx: SourceContext): Promise<Asset[]> {
  const cards = await listPacks(ctx);
  const pages = await readItemPages(ID, cards, async (card) => parsePackPage(card.slug, (await ctx.http.getText(card.url, { signal: ctx.signal })).text));
  return cards.map((card, i) => cardToAsset(card, pages[i]));
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** `June 2019` → `2019-06`. */
function isoMonth(text: string): string | undefined {
  const m = /([a-z]+)\s+(\d{4})/i.exec(text);
  const month = m ? MONTHS.indexOf(m[1]!.toLowerCase()) : -1;
  return m && month >= 0 ? `${m[2]}-${String(month + 1).padStart(2, "0")}` : undefined;
}

const FORMAT_NAMES: Record<string, string> = { gltf: "gltf", glb: "glb", fbx: "fbx", obj: "obj", blend: "blend", usdz: "usdz" };

/** A download link as a file entry: a Google Drive folder or an itch.io page, never a plain file. */
function linkFile(slug: string, url: string): AssetFile {
  const host = new URL(url).hostname;
  const where = /(^|\.)drive\.google\.com$/.test(host) ? "google-drive" : /(^|\.)itch\.io$/.test(host) ? "itch-io" : host.replace(/\./g, "-");
  return { url, filename: `${slug}-${where}`, format: "page", group: "archive", requiresAuth: true };
}

/** Parses a pack page into details; `slug` is the pack's own. */
export function parsePackPage(slug: string, html: string): AssetDetails {
  const $ = cheerio.load(html);
  const ogTitle = $("meta[property='og:title']").attr("content") ?? $("title").first().text();
  const title = ogTitle.replace(/^\s*Quaternius\s*[•·|-]\s*/, "").trim();
  if (!title || !$(".infoitem").length) throw new Error(`quaternius: pack page ${packUrl(slug)} has no title or info (page changed?)`);

  const rawDescription = $("meta[name='description']").attr("content") ?? "";
  const description = cheerio.load(`<p>${rawDescription}</p>`)("p").text().replace(/\s+/g, " ").trim();
  const thumbnailUrl = httpUrl($("meta[property='og:image']").attr("content"), HOME);

  /** The `.infoitem` row whose own label is `label`. */
  const info = (label: string) =>
    $(".infoitem")
      .filter((_, el) => $(el).contents().filter((_, n) => n.type === "text").text().trim().toLowerCase() === label)
      .first();
  const checked = (label: string): boolean | undefined => {
    const icon = info(label).find(".text-right img").attr("src") ?? "";
    return /check/.test(icon) ? true : /xmark/.test(icon) ? false : undefined;
  };
  const formats = [
    ...new Set(
      info("formats")
        .find(".tags")
        .toArray()
        .map((t) => $(t).text().trim().toLowerCase())
        .map((f) => FORMAT_NAMES[f] ?? f)
        .filter(Boolean),
    ),
  ];
  const licenseLink = info("license").find("a").first();
  const license = normalizeLicense(licenseLink.text().trim() || undefined, httpUrl(licenseLink.attr("href"), HOME));
  const animated = checked("animated");
  const createdAt = isoMonth($(".titleDate").first().text());

  const links = new Set<string>();
  $("[onclick]").each((_, el) => {
    const url = /window\.open\(\s*['"]([^'"]+)['"]/.exec($(el).attr("onclick") ?? "")?.[1];
    if (url) links.add(url);
  });
  $("a[href]").each((_, el) => {
    links.add($(el).attr("href")!);
  });
  const files = [...links]
    .map((href) => httpUrl(href, HOME))
    .filter((u): u is string => Boolean(u && /(^|\.)(drive\.google\.com|itch\.io)$/.test(new URL(u).hostname)))
    // Only download links: the Patreon and Discord buttons are not.
    .filter((u) => !/patreon|discord/i.test(u))
    .map((u) => linkFile(slug, u));

  return {
    id: `${ID}:${slug}`,
    provider: ID,
    nativeId: slug,
    title,
    ...(description ? { description } : {}),
    type: "model",
    tags: [...SITE_TAGS],
    url: packUrl(slug),
    ...(thumbnailUrl ? { thumbnailUrl } : {}),
    author: NAME,
    ...(license ? { license } : {}),
    price: { free: true },
    ...(formats.length ? { formats } : {}),
    ...(animated !== undefined ? { animated } : {}),
    downloadable: false,
    ...(createdAt ? { createdAt } : {}),
    files,
  };
}

async function getAsset(slug: string, ctx: SourceContext): Promise<AssetDetails | null> {
  if (!SLUG.test(slug)) return null;
  const page = await unlessGone(ctx.http.getText(packUrl(slug), { signal: ctx.signal }));
  if (!page) return null;
  return parsePackPage(slug, page.text);
}

async function census(ctx: SourceContext): Promise<SourceCensus> {
  const cards = await listPacks(ctx);
  const categories: Record<string, number> = {};
  for (const card of cards) for (const tag of new Set(card.tags)) categories[tag] = (categories[tag] ?? 0) + 1;
  const highlights = cards.filter((c) => c.isNew).map((c) => ({ label: "New pack", title: c.title, url: c.url }));
  return {
    id: ID,
    name: NAME,
    homepage: HOME,
    total: cards.length,
    free: cards.length,
    byType: { model: cards.length },
    categories,
    unit: "packs",
    ...(highlights.length ? { highlights } : {}),
    method:
      "quaternius.com home page: every pack card counted (the Patreon card is not a pack); categories are the cards' public tags; licences are per pack page and not counted",
    countedAt: ctx.now().toISOString(),
  };
}

/** The site has no search address (its home page filters in the browser): the home page. */
function searchUrl(_query: SourceQuery): string {
  return HOME;
}

export const quaternius: Source = {
  id: ID,
  name: NAME,
  homepage: HOME,
  description: "Best for free low-poly 3D model packs (nature, characters, vehicles, kits), mostly CC0.",
  assetTypes: ["pack", "model"],
  access: "scrape",
  pricing: "free",
  supportsDownload: false,
  mode: "indexed",
  unit: "packs",
  searchUrl,
  crawl,
  getAsset,
  census,
};
