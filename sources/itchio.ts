/**
 * itch.io (https://itch.io): indie game assets, mostly packs, free and paid. No public search API,
 * so this source reads the site's own pages. Live: searched through the site at search time.
 *
 * Upstream shapes used here:
 * - `/search?q=<q>&type=games&classification=assets[&page=N]` → HTML with `.game_cell` cards
 *   (title link `https://<author>.itch.io/<slug>`, `img[data-lazy_src]`, `.game_text`, `.game_author`,
 *   `.price_tag` on paid or discounted listings) and `.stats_line` ("1000+ projects match").
 * - `/game-assets[/free][/tag-<tag>]?format=json&page=N` → `{ page, num_items, content }`, where
 *   `content` is the HTML of the same cards (36 per page). Used for an empty query and the census.
 * - `https://<author>.itch.io/<slug>/data.json` → `{ id, title, price, cover_image, tags, authors … }`.
 * - `https://<author>.itch.io/<slug>` → the page: meta description, the "More information" table
 *   (`Asset license` …) and the uploads list (`.upload`: name, size, minimum price).
 *
 * Downloads go through itch.io's own flow (download/purchase page, often a payment), so every file
 * is a `requiresAuth` link to the asset's page and nothing is downloadable by this server.
 */
import { load, type CheerioAPI } from "cheerio";
import { z } from "zod";
import type { Source, SourceContext, SourceQuery } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, AssetType, Price, SourceCensus } from "../core/schemas/index.ts";
import { normalizeLicense } from "../core/license.ts";
import { followUpPage } from "./kit/page-window.ts";
import { isGone } from "./kit/fetch.ts";

const ID = "itchio";
const NAME = "itch.io";
const SITE = "https://itch.io";
/** Cards per page of itch.io's browse listings (the recorded `num_items`). */
const BROWSE_PAGE_SIZE = 36;
/** Pages one search may read at most (limit ≤ 100 needs 3 browse pages; search pages are not smaller). */
const MAX_PAGES = 4;
/** The listing the census reads: free 3D game assets, first page, popular first. */
const CENSUS_URL = `${SITE}/game-assets/free/tag-3d?format=json&page=1`;

const ITCH_TYPES: readonly AssetType[] = ["pack", "model", "sprite", "ui", "audio", "font"];

/** Browse tags of itch.io for the one type asked (audio has no single tag: music and sound effects). */
const TYPE_TAGS: Partial<Record<AssetType, string>> = { model: "3d", sprite: "2d", ui: "gui", font: "fonts" };

/** Tags (as itch.io slugs them) that say what kind of assets a listing holds. */
const TAG_KINDS: Array<[AssetType, readonly string[]]> = [
  ["model", ["3d", "3d-model", "3d-models", "models", "low-poly", "lowpoly"]],
  ["sprite", ["2d", "sprites", "sprite", "pixel-art", "tileset", "spritesheet", "sprite-sheet"]],
  ["ui", ["gui", "ui", "user-interface", "icons"]],
  ["audio", ["music", "sound-effects", "sfx", "audio", "soundtrack"]],
  ["font", ["fonts", "font"]],
];

/** The type a listing's tags point to; several kinds at once (or none) make it a pack. */
export function typeFromTags(tags: readonly string[]): AssetType {
  const set = new Set(tags.map((t) => t.toLowerCase()));
  const kinds = new Set(TAG_KINDS.filter(([, names]) => names.some((n) => set.has(n))).map(([kind]) => kind));
  // UI kits and fonts are 2D too: "2d" next to them does not make a mixed pack.
  if (kinds.has("ui") || kinds.has("font")) kinds.delete("sprite");
  return kinds.size === 1 ? [...kinds][0]! : "pack";
}

/** `https://<author>.itch.io/<slug>` → `{ author, slug }`; other addresses (custom domains) → undefined. */
function parseGameUrl(href: string | undefined): { author: string; slug: string } | undefined {
  if (!href) return undefined;
  let url: URL;
  try {
    url = new URL(href, SITE);
  } catch {
    return undefined;
  }
  const host = /^([a-z0-9][a-z0-9_-]*)\.itch\.io$/i.exec(url.hostname);
  const slug = /^\/([a-z0-9][a-z0-9_-]*)\/?$/i.exec(url.pathname);
  if (!host || !slug) return undefined;
  return { author: host[1]!.toLowerCase(), slug: slug[1]! };
}

const gameUrl = (author: string, slug: string) => `https://${author}.itch.io/${slug}`;

const CURRENCIES: Array<[RegExp, string]> = [
  [/\$/, "USD"],
  [/€/, "EUR"],
  [/£/, "GBP"],
  [/¥/, "JPY"],
];

/** "$1", "$9.99 USD", "0€", "$0.00" → a Price; undefined when no amount can be read. */
export function parsePrice(text: string | undefined): Price | undefined {
  const raw = (text ?? "").trim();
  const m = /(\d+(?:[.,]\d{1,2})?)/.exec(raw);
  if (!m) return undefined;
  const amount = Number(m[1]!.replace(",", "."));
  const code = /\b([A-Z]{3})\b/.exec(raw)?.[1] ?? CURRENCIES.find(([re]) => re.test(raw))?.[1];
  if (amount === 0) return { free: true };
  return { free: false, amount, ...(code ? { currency: code } : {}) };
}

/** Sizes as itch.io prints them ("6.1 MB", "577 kB"), decimal units; approximate by nature. */
export function parseSize(text: string | undefined): number | undefined {
  const m = /([\d.]+)\s*(bytes?|B|kB|KB|MB|GB|TB)\b/i.exec(text ?? "");
  if (!m) return undefined;
  const unit = m[2]!.toLowerCase().replace(/s$/, "");
  const power = { byte: 0, b: 0, kb: 1, mb: 2, gb: 3, tb: 4 }[unit] ?? 0;
  return Math.round(Number(m[1]) * 1000 ** power);
}

/** Every `.game_cell` of a search page or browse listing, as Assets. `fallbackType` types cards with no hint. */
function cardsOf($: CheerioAPI, fallbackType: AssetType): Asset[] {
  const out: Asset[] = [];
  $(".game_cell").each((_, el) => {
    const cell = $(el);
    const link = cell.find("a.title.game_link").first();
    const place = parseGameUrl(link.attr("href"));
    const title = link.text().trim();
    if (!place || !title) return;
    const nativeId = `${place.author}~${place.slug}`;
    const img = cell.find(".game_thumb img").first();
    const thumb = img.attr("data-lazy_src") ?? img.attr("src");
    const text = cell.find(".game_text").first();
    const description = (text.attr("title") ?? text.text()).trim();
    const author = cell.find(".game_author a").first().text().trim();
    const priceTag = cell.find(".price_tag").first();
    const price: Price = priceTag.length ? (parsePrice(priceTag.find(".price_value").text()) ?? { free: false }) : { free: true };
    // itch.io names the kind of listing in the price tooltip ("… for this audio pack").
    const hint = (priceTag.attr("title") ?? "").toLowerCase();
    const type: AssetType = /\baudio\b|\bsoundtrack\b/.test(hint) ? "audio" : /\bfont\b/.test(hint) ? "font" : fallbackType;
    out.push({
      id: `${ID}:${nativeId}`,
      provider: ID,
      nativeId,
      title,
      ...(description ? { description } : {}),
      type,
      tags: [],
      url: gameUrl(place.author, place.slug),
      ...(thumb && /^https?:\/\//.test(thumb) ? { thumbnailUrl: thumb } : {}),
      ...(author ? { author } : {}),
      price,
      downloadable: false,
    });
  });
  return out;
}

const BrowsePage = z.object({ page: z.number().optional(), num_items: z.number(), content: z.string() });

/** One browse listing page (JSON), parsed; a changed answer throws naming the source. */
async function browsePage(url: string, fallbackType: AssetType, ctx: SourceContext): Promise<{ assets: Asset[]; count: number }> {
  const body = await ctx.http.getJson(url, { signal: ctx.signal });
  const parsed = BrowsePage.safeParse(body);
  if (!parsed.success) throw new Error(`itchio: browse listing ${url} is not { num_items, content } JSON`);
  return { assets: cardsOf(load(parsed.data.content), fallbackType), count: parsed.data.num_items };
}

/** One search results page (HTML), parsed; `total` only when itch.io gives an exact count. */
async function searchPage(url: string, ctx: SourceContext): Promise<{ assets: Asset[]; cells: number; total?: number }> {
  const { text } = await ctx.http.getText(url, { signal: ctx.signal });
  const $ = load(text);
  if (!$(".search_page, .browse_game_grid, .game_grid_widget").length) {
    throw new Error(`itchio: search page ${url} has no result grid (the page layout changed)`);
  }
  const stats = $(".stats_line").first().text();
  const m = /([\d,]+)(\+)?\s+(?:projects?|results?)/i.exec(stats);
  const total = m && !m[2] ? Number(m[1]!.replace(/,/g, "")) : undefined;
  return { assets: cardsOf($, "pack"), cells: $(".game_cell").length, ...(total !== undefined ? { total } : {}) };
}

const searchPageUrl = (q: string, page: number) =>
  `${SITE}/search?${new URLSearchParams({ q, type: "games", classification: "assets" })}${page > 1 ? `&page=${page}` : ""}`;

function browseUrl(query: SourceQuery, page: number): { url: string; tagType?: AssetType } {
  const tagged = query.types.length === 1 ? query.types[0]! : undefined;
  const tag = tagged ? TYPE_TAGS[tagged] : undefined;
  const path = `${SITE}/game-assets${query.free ? "/free" : ""}${tag ? `/tag-${tag}` : ""}`;
  return { url: `${path}?format=json&page=${page}`, ...(tag && tagged ? { tagType: tagged } : {}) };
}

function keep(asset: Asset, query: SourceQuery): boolean {
  if (query.free && !asset.price?.free) return false;
  // A pack may hold any kind of asset; itch.io's search cannot filter by kind.
  if (query.types.length && asset.type !== "pack" && !query.types.includes(asset.type)) return false;
  return true;
}

async function search(query: SourceQuery, ctx: SourceContext) {
  const url = searchUrl(query);
  if (query.types.length && !query.types.some((t) => ITCH_TYPES.includes(t))) return { assets: [], searchUrl: url };
  const q = query.q.trim();
  const collected: Asset[] = [];

  if (!q) {
    // No text: itch.io's browse listing, with its free and tag filters in the path.
    let page = Math.floor(query.offset / BROWSE_PAGE_SIZE) + 1;
    let skip = query.offset % BROWSE_PAGE_SIZE;
    for (let i = 0; i < MAX_PAGES && collected.length < query.limit; i++, page++) {
      const { url: pageUrl, tagType } = browseUrl(query, page);
      // The window's first page must answer; a later one that fails ends the window with what was gathered.
      const answer = i === 0
        ? await browsePage(pageUrl, tagType ?? "pack", ctx)
        : await followUpPage(() => browsePage(pageUrl, tagType ?? "pack", ctx), ctx.signal);
      if (!answer) break;
      const { assets, count } = answer;
      collected.push(...assets.slice(skip).filter((a) => keep(a, query)));
      skip = 0;
      if (count < BROWSE_PAGE_SIZE) break;
    }
    return { assets: collected.slice(0, query.limit), searchUrl: url };
  }

  // Text: the site's search, assets only. Its page size is not documented, so page 1 tells it.
  const first = await searchPage(searchPageUrl(q, 1), ctx);
  const size = first.cells;
  let total = first.total;
  let page = 1;
  let skip = query.offset;
  let current = first;
  if (size && query.offset >= size) {
    page = Math.floor(query.offset / size) + 1;
    skip = query.offset - (page - 1) * size;
    current = await searchPage(searchPageUrl(q, page), ctx);
  }
  for (let i = 0; i < MAX_PAGES; i++) {
    collected.push(...current.assets.slice(skip).filter((a) => keep(a, query)));
    skip = 0;
    if (collected.length >= query.limit || current.cells < size || !size) break;
    if (total !== undefined && page * size >= total) break;
    page++;
    // A later page that fails ends the window: the results already gathered still stand.
    const next = await followUpPage(() => searchPage(searchPageUrl(q, page), ctx), ctx.signal);
    if (!next) break;
    current = next;
  }
  // The site's count holds only when nothing was filtered here.
  if (query.free || query.types.length) total = undefined;
  return { assets: collected.slice(0, query.limit), ...(total !== undefined ? { total } : {}), searchUrl: url };
}

const DataJson = z.looseObject({
  id: z.number(),
  title: z.string(),
  price: z.string().optional(),
  cover_image: z.string().optional(),
  tags: z.array(z.string()).optional(),
  authors: z.array(z.looseObject({ name: z.string(), url: z.string().optional() })).optional(),
});

const extensionOf = (name: string) => /\.((?:tar\.)?[a-z0-9]{1,8})$/i.exec(name.trim())?.[1]?.toLowerCase();

const ARCHIVES = new Set(["zip", "rar", "7z", "tar.gz", "tgz", "tar"]);
const AUDIO = new Set(["ogg", "wav", "mp3", "flac"]);
const FONTS = new Set(["ttf", "otf", "woff", "woff2"]);

function groupOf(format: string | undefined): string | undefined {
  if (!format) return undefined;
  if (ARCHIVES.has(format)) return "archive";
  if (AUDIO.has(format)) return "audio";
  if (FONTS.has(format)) return "font";
  return undefined;
}

/** The uploads of a page: every one is fetched through itch.io's download flow, so `requiresAuth`. */
function uploadsOf($: CheerioAPI, pageUrl: string): AssetFile[] {
  const files: AssetFile[] = [];
  $(".upload_list_widget .upload").each((_, el) => {
    const upload = $(el);
    const nameEl = upload.find(".upload_name .name").first();
    const filename = (nameEl.attr("title") ?? nameEl.text()).trim();
    if (!filename) return;
    const format = extensionOf(filename);
    const size = parseSize(upload.find(".file_size").first().text());
    const group = groupOf(format);
    files.push({
      url: pageUrl,
      filename,
      format: format ?? "unknown",
      ...(size !== undefined ? { sizeBytes: size } : {}),
      ...(group ? { group } : {}),
      requiresAuth: true,
    });
  });
  return files;
}

/** The "More information" table: label → cell. */
function infoTable($: CheerioAPI): Map<string, ReturnType<CheerioAPI>> {
  const rows = new Map<string, ReturnType<CheerioAPI>>();
  $(".game_info_panel_widget tr").each((_, tr) => {
    const cells = $(tr).find("td");
    if (cells.length >= 2) rows.set(cells.first().text().trim().toLowerCase(), cells.eq(1));
  });
  return rows;
}

async function getAsset(nativeId: string, ctx: SourceContext): Promise<AssetDetails | null> {
  const m = /^([a-z0-9][a-z0-9_-]*)~([a-z0-9][a-z0-9_-]*)$/i.exec(nativeId);
  if (!m) return null;
  const author = m[1]!.toLowerCase();
  const slug = m[2]!;
  const pageUrl = gameUrl(author, slug);
  const [data, page] = await Promise.allSettled([
    ctx.http.getJson(`${pageUrl}/data.json`, { signal: ctx.signal }),
    ctx.http.getText(pageUrl, { signal: ctx.signal }),
  ]);
  const failures = [data, page].flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
  if (failures.some(isGone)) return null;
  if (failures.length) throw failures[0];

  const info = DataJson.safeParse((data as PromiseFulfilledResult<unknown>).value);
  if (!info.success) throw new Error(`itchio: ${pageUrl}/data.json has no id and title`);
  const $ = load((page as PromiseFulfilledResult<{ text: string }>).value.text);
  if (!$(".view_game_page, h1.game_title").length) {
    throw new Error(`itchio: ${pageUrl} is not an itch.io project page (the page layout changed)`);
  }
  const d = info.data;
  const table = infoTable($);
  const licenseText = table.get("asset license")?.text().trim();
  const license = licenseText ? normalizeLicense(licenseText) : undefined;
  const description =
    $('meta[name="description"]').attr("content")?.trim() || $('meta[property="og:description"]').attr("content")?.trim();
  const nameYourPrice = /name your own price/i.test($(".buy_message").first().text());
  const price: Price = nameYourPrice ? { free: true } : (parsePrice(d.price) ?? { free: true });
  const files = uploadsOf($, pageUrl);
  const formats = [...new Set(files.map((f) => f.format).filter((f) => f !== "unknown"))];
  const tags = d.tags ?? [];
  const authorName = d.authors?.[0]?.name ?? table.get("author")?.text().trim();
  return {
    id: `${ID}:${author}~${slug}`,
    provider: ID,
    nativeId: `${author}~${slug}`,
    title: d.title,
    ...(description ? { description } : {}),
    type: typeFromTags(tags),
    tags,
    url: pageUrl,
    ...(d.cover_image && /^https?:\/\//.test(d.cover_image) ? { thumbnailUrl: d.cover_image } : {}),
    ...(authorName ? { author: authorName } : {}),
    ...(license ? { license } : {}),
    price,
    ...(formats.length ? { formats } : {}),
    downloadable: false,
    files,
  };
}

async function census(ctx: SourceContext): Promise<SourceCensus> {
  const { assets, count } = await browsePage(CENSUS_URL, "model", ctx);
  const listed = Math.max(count, assets.length);
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total: listed,
    atLeast: true,
    free: listed,
    byType: { model: listed },
    unit: "packs",
    highlights: assets.slice(0, 3).map((a) => ({ label: "Popular free 3D asset pack", title: a.title, url: a.url })),
    method:
      "One request to itch.io's browse listing of free 3D game assets (/game-assets/free/tag-3d?format=json&page=1). " +
      "itch.io publishes no catalogue totals there, so every number is a lower bound: the listings on that first page (num_items).",
    countedAt: ctx.now().toISOString(),
  };
}

/** The same search on itch.io for people: assets only; an empty query opens the browse listing with its filters. */
function searchUrl(query: SourceQuery): string {
  const q = query.q.trim();
  if (!q) {
    const tagged = query.types.length === 1 ? TYPE_TAGS[query.types[0]!] : undefined;
    return `${SITE}/game-assets${query.free ? "/free" : ""}${tagged ? `/tag-${tagged}` : ""}`;
  }
  return searchPageUrl(q, 1);
}

export const itchio: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Indie game asset packs (3D, 2D sprites, UI, audio, fonts), free and paid; best for stylised game-ready packs. Downloads go through itch.io.",
  assetTypes: [...ITCH_TYPES],
  access: "scrape",
  pricing: "freemium",
  supportsDownload: false,
  mode: "live",
  unit: "packs",
  searchUrl,
  search,
  getAsset,
  census,
};
