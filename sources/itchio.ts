/**
 * itch.io (https://itch.io): indie game assets, mostly packs, free and paid. No public search API: this source reads the site's own pages at search time (the
 * search page, the browse listing's JSON, a project's data.json and page). Downloads go through itch.io's own flow (download/purchase page, often a payment),
 * so every file is a `requiresAuth` link to the asset's page and nothing is downloadable by this server.
 */
import { z } from "zod";
import { normalizeLicense } from "../core/model/license.ts";
import { type Asset, type AssetDetails, type AssetFile, type AssetType, assetMaker, compact } from "./kit/asset.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { expectShape, type SourceIo, shapeError, unlessAnyGone } from "./kit/fetch.ts";
import { parseSize } from "./kit/files.ts";
import { type CheerioAPI, loadHtml, metaContent } from "./kit/html.ts";
import { followUpPage } from "./kit/page-window.ts";
import { parsePrice } from "./kit/price.ts";
import { httpUrl } from "./kit/url.ts";

const ID = "itchio";
const SITE = "https://itch.io";
const asset = assetMaker(ID);
const BROWSE_PAGE_SIZE = 36; // cards per page of itch.io's browse listings (the recorded `num_items`)
const MAX_PAGES = 4; // pages one search reads at most (limit ≤ 100 needs 3 browse pages; search pages are not smaller)
const CENSUS_URL = `${SITE}/game-assets/free/tag-3d?format=json&page=1`; // free 3D game assets, first page, popular first

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
const GROUPS = { archive: ["zip", "rar", "7z", "tar.gz", "tgz", "tar"], audio: ["ogg", "wav", "mp3", "flac"], font: ["ttf", "otf", "woff", "woff2"] };

/** The type a listing's tags point to; several kinds at once (or none) make it a pack. */
export function typeFromTags(tags: readonly string[]): AssetType {
  const set = new Set(tags.map((t) => t.toLowerCase()));
  const kinds = TAG_KINDS.filter(([, names]) => names.some((n) => set.has(n))).map(([kind]) => kind);
  // UI kits and fonts are 2D too: "2d" next to them does not make a mixed pack.
  const [only, ...more] = kinds.includes("ui") || kinds.includes("font") ? kinds.filter((k) => k !== "sprite") : kinds;
  return only && !more.length ? only : "pack";
}

/** `https://<author>.itch.io/<slug>` → `<author>~<slug>`; other addresses (custom domains) → undefined. */
function nativeIdOf(href: string | undefined): string | undefined {
  const url = new URL(httpUrl(href, SITE) ?? SITE); // no http(s) URL: the site itself, no project
  const host = /^([a-z0-9][a-z0-9_-]*)\.itch\.io$/i.exec(url.hostname)?.[1];
  const slug = /^\/([a-z0-9][a-z0-9_-]*)\/?$/i.exec(url.pathname)?.[1];
  return host && slug ? `${host.toLowerCase()}~${slug}` : undefined;
}

const gameUrl = (nativeId: string) => `https://${nativeId.replace("~", ".itch.io/")}`; // <author>~<slug>

/** Every `.game_cell` of a search page or browse listing, as Assets. `fallbackType` types cards with no hint. */
function cardsOf($: CheerioAPI, fallbackType: AssetType): Asset[] {
  return [...$(".game_cell")].flatMap((el) => {
    const cell = $(el);
    const link = cell.find("a.title.game_link").first();
    const nativeId = nativeIdOf(link.attr("href"));
    const title = link.text().trim();
    if (!nativeId || !title) return [];
    const img = cell.find(".game_thumb img").first();
    const text = cell.find(".game_text").first();
    const priceTag = cell.find(".price_tag").first();
    const hint = (priceTag.attr("title") ?? "").toLowerCase(); // itch.io names the kind of listing here ("… for this audio pack")
    return asset(nativeId, {
      title,
      description: (text.attr("title") ?? text.text()).trim(),
      type: /\baudio\b|\bsoundtrack\b/.test(hint) ? "audio" : /\bfont\b/.test(hint) ? "font" : fallbackType,
      url: gameUrl(nativeId),
      thumbnailUrl: img.attr("data-lazy_src") ?? img.attr("src"),
      author: cell.find(".game_author a").first().text().trim(),
      price: priceTag.length ? (parsePrice(priceTag.find(".price_value").text()) ?? { free: false }) : { free: true },
      downloadable: false,
    });
  });
}

const BrowsePage = z.object({ page: z.number().optional(), num_items: z.number(), content: z.string() });
/** One browse listing page (JSON), parsed; a short page is the listing's last. */
async function browsePage(url: string, fallbackType: AssetType, io: SourceIo): Promise<Page & { count: number }> {
  const page = expectShape(ID, url, BrowsePage, await io.json(url), `browse listing ${url} is not { num_items, content } JSON`);
  return { assets: cardsOf(loadHtml(page.content), fallbackType), count: page.num_items, more: page.num_items >= BROWSE_PAGE_SIZE };
}

/** One search results page (HTML), parsed; `total` only when itch.io gives an exact count ("1000+ projects" is none). */
async function searchPage(url: string, io: SourceIo): Promise<{ assets: Asset[]; cells: number; total?: number }> {
  const $ = loadHtml((await io.text(url)).text);
  if (!$(".search_page, .browse_game_grid, .game_grid_widget").length)
    throw shapeError(ID, url, `search page ${url} has no result grid (the page layout changed)`);
  const m = /([\d,]+)(\+)?\s+(?:projects?|results?)/i.exec($(".stats_line").first().text());
  return { assets: cardsOf($, "pack"), cells: $(".game_cell").length, total: m?.[1] && !m[2] ? Number(m[1].replace(/,/g, "")) : undefined };
}

const searchPageUrl = (q: string, page: number) =>
  `${SITE}/search?${new URLSearchParams({ q, type: "games", classification: "assets" })}${page > 1 ? `&page=${page}` : ""}`;

/** The browse listing with the query's filters: free, and the tag of the one type asked (when it has one). */
function browseListing(query: SourceQuery): { path: string; tagType?: AssetType } {
  const asked = query.types.length === 1 ? query.types[0] : undefined;
  const tag = asked && TYPE_TAGS[asked];
  return { path: `${SITE}/game-assets${query.free ? "/free" : ""}${tag ? `/tag-${tag}` : ""}`, tagType: tag ? asked : undefined };
}

/** What this source filters itself: free listings when asked, and the asked types (a pack may hold any kind). */
const keep = (asset: Asset, query: SourceQuery) =>
  (!query.free || asset.price?.free === true) && (!query.types.length || asset.type === "pack" || query.types.includes(asset.type));

/** A page of cards, and whether a next page may hold more. */
type Page = { assets: Asset[]; more: boolean };
/** Pages from `page` on until the limit is met (MAX_PAGES at most); the first must answer, a later one that fails ends the window. */
async function gather(query: SourceQuery, page: number, skip: number, read: (page: number) => Promise<Page>, signal?: AbortSignal) {
  const collected: Asset[] = [];
  let current: Page | undefined = await read(page);
  for (let i = 1; current; i++) {
    collected.push(...current.assets.slice(i === 1 ? skip : 0).filter((a) => keep(a, query)));
    if (collected.length >= query.limit || !current.more || i >= MAX_PAGES) break;
    current = await followUpPage(() => read(page + i), signal);
  }
  return collected.slice(0, query.limit);
}

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  const url = searchUrl(query);
  if (query.types.length && !query.types.some((t) => ITCH_TYPES.includes(t))) return { assets: [], searchUrl: url };
  const q = query.q.trim();
  if (!q) {
    // No text: itch.io's browse listing, with its free and tag filters in the path.
    const { path, tagType } = browseListing(query);
    const read = (page: number) => browsePage(`${path}?format=json&page=${page}`, tagType ?? "pack", io);
    return { assets: await gather(query, Math.floor(query.offset / BROWSE_PAGE_SIZE) + 1, query.offset % BROWSE_PAGE_SIZE, read, io.signal), searchUrl: url };
  }
  // Text: the site's search, assets only. Its page size is not documented, so page 1 tells it.
  const first = await searchPage(searchPageUrl(q, 1), io);
  const size = first.cells;
  const page = size && query.offset >= size ? Math.floor(query.offset / size) + 1 : 1;
  const read = async (n: number) => {
    const res = n === 1 ? first : await searchPage(searchPageUrl(q, n), io);
    return { assets: res.assets, more: size > 0 && res.cells >= size && (first.total === undefined || n * size < first.total) };
  };
  const assets = await gather(query, page, query.offset - (page - 1) * size, read, io.signal);
  // The site's count holds only when nothing was filtered here.
  return { assets, ...compact({ total: query.free || query.types.length ? undefined : first.total, searchUrl: url }) };
}

const opt = z.string().optional();
const optList = <T extends z.ZodType>(item: T) => z.array(item).optional();
const Author = z.looseObject({ name: z.string(), url: opt });
const DataJson = z.looseObject({ id: z.number(), title: z.string(), price: opt, cover_image: opt, tags: optList(z.string()), authors: optList(Author) });
const extensionOf = (name: string) => /\.((?:tar\.)?[a-z0-9]{1,8})$/i.exec(name.trim())?.[1]?.toLowerCase();
const groupOf = (format: string | undefined) => Object.entries(GROUPS).find(([, formats]) => format && formats.includes(format))?.[0];

/** The uploads of a page: every one is fetched through itch.io's download flow, so `requiresAuth`. */
function uploadsOf($: CheerioAPI, pageUrl: string): AssetFile[] {
  return [...$(".upload_list_widget .upload")].flatMap((el) => {
    const name = $(el).find(".upload_name .name").first();
    const filename = (name.attr("title") ?? name.text()).trim();
    const format = extensionOf(filename);
    const sizeBytes = parseSize($(el).find(".file_size").first().text()); // decimal units, as itch.io prints them
    return filename ? [compact({ url: pageUrl, filename, format: format ?? "unknown", sizeBytes, group: groupOf(format), requiresAuth: true })] : [];
  });
}

/** The "More information" table: label → cell. */
function infoTable($: CheerioAPI) {
  const rows = [...$(".game_info_panel_widget tr")].map((tr) => $(tr).find("td"));
  return new Map(rows.filter((cells) => cells.length >= 2).map((cells) => [cells.first().text().trim().toLowerCase(), cells.eq(1)]));
}

async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  const id = nativeIdOf(gameUrl(nativeId)); // the author lower case, as in host names
  if (!id || id.toLowerCase() !== nativeId.toLowerCase()) return null;
  const pageUrl = gameUrl(id);
  const answers = await unlessAnyGone(io.json(`${pageUrl}/data.json`), io.text(pageUrl));
  if (!answers) return null;
  const d = expectShape(ID, pageUrl, DataJson, answers[0], `${pageUrl}/data.json has no id and title`);
  const $ = loadHtml(answers[1].text);
  if (!$(".view_game_page, h1.game_title").length) throw shapeError(ID, pageUrl, `${pageUrl} is not an itch.io project page (the page layout changed)`);
  const table = infoTable($);
  const files = uploadsOf($, pageUrl);
  return {
    files,
    ...asset(id, {
      title: d.title,
      description: metaContent($, "description") ?? metaContent($, "og:description"),
      type: typeFromTags(d.tags ?? []),
      tags: d.tags,
      url: pageUrl,
      thumbnailUrl: d.cover_image,
      author: d.authors?.[0]?.name ?? table.get("author")?.text().trim(),
      license: normalizeLicense(table.get("asset license")?.text().trim()),
      price: /name your own price/i.test($(".buy_message").first().text()) ? { free: true } : (parsePrice(d.price) ?? { free: true }),
      formats: [...new Set(files.map((f) => f.format).filter((f) => f !== "unknown"))],
      downloadable: false,
    }),
  };
}

async function census(io: SourceIo): Promise<CensusBody> {
  const { assets, count } = await browsePage(CENSUS_URL, "model", io);
  const listed = Math.max(count, assets.length);
  return {
    total: listed,
    atLeast: true,
    free: listed,
    byType: { model: listed },
    highlights: assets.slice(0, 3).map((a) => ({ label: "Popular free 3D asset pack", title: a.title, url: a.url })),
    method:
      "One request to itch.io's browse listing of free 3D game assets (/game-assets/free/tag-3d?format=json&page=1). " +
      "itch.io publishes no catalogue totals there, so every number is a lower bound: the listings on that first page (num_items).",
  };
}

/** The same search on itch.io for people: assets only; an empty query opens the browse listing with its filters. */
const searchUrl = (query: SourceQuery) => (query.q.trim() ? searchPageUrl(query.q.trim(), 1) : browseListing(query).path);

export const itchio = defineSource(
  {
    id: ID,
    name: "itch.io",
    homepage: SITE,
    description: "Indie game asset packs (3D, 2D sprites, UI, audio, fonts), free and paid; best for stylised game-ready packs. Downloads go through itch.io.",
    assetTypes: [...ITCH_TYPES],
    access: "scrape",
    pricing: "freemium",
    supportsDownload: false,
    unit: "packs",
    // Cards name the author and nothing else a filter reads; the site's search page takes no filters, so none go upstream.
    filtering: { upstream: [], listed: ["author"] },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
