/**
 * OpenGameArt.org (https://opengameart.org): free game art (2D, 3D, textures, music, sound effects) under per-asset open licences.
 * A Drupal 7 site without an API, read live: its advanced search (the `view-id-art` view: "Displaying 1 - 24 of 182", 24 cards,
 * a 0-based pager) and its art pages (`/content/<slug>`: author, date, type, tags, licences, body, notice and plain file links).
 */
import { UpstreamError } from "../core/http/types.ts";
import { licenseFamily, normalizeLicense } from "../core/model/license.ts";
import { type Asset, type AssetDetails, type AssetFile, type AssetType, assetMaker, compact, type License } from "./kit/asset.ts";
import { countBy, sum } from "./kit/census.ts";
import { monthNumber } from "./kit/dates.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { type SourceIo, shapeError, unlessGone } from "./kit/fetch.ts";
import { extensionOf, fileNameOf } from "./kit/files.ts";
import { type CheerioAPI, loadHtml } from "./kit/html.ts";
import { followUpPage, pageWindow } from "./kit/page-window.ts";
import { httpUrl, isHttpUrl } from "./kit/url.ts";

const ID = "opengameart";
const SITE = "https://opengameart.org";
const PAGE_SIZE = 24;
const MAX_PAGES = 6; // result pages one search may read at most (limit ≤ 100 spans at most 6 pages of 24)
const asset = assetMaker(ID);

/** OpenGameArt's art types (taxonomy term ids of `field_art_type_tid`, from the search page's own filter) and ours. */
const ART_TYPES = [
  { tid: 9, label: "2D Art", type: "sprite" },
  { tid: 10, label: "3D Art", type: "model" },
  { tid: 7273, label: "Concept Art", type: "other" },
  { tid: 14, label: "Texture", type: "texture" },
  { tid: 12, label: "Music", type: "audio" },
  { tid: 13, label: "Sound Effect", type: "audio" },
  { tid: 11, label: "Document", type: "other" },
] as const satisfies ReadonlyArray<{ tid: number; label: string; type: AssetType }>;

/** OpenGameArt's licences (taxonomy term ids of `field_art_licenses_tid`, from the search page's own filter) by our licence id. */
const LICENSE_TIDS: Record<string, number> = {
  "CC0-1.0": 4,
  "CC-BY-3.0": 2,
  "CC-BY-4.0": 17981,
  "CC-BY-SA-3.0": 3,
  "CC-BY-SA-4.0": 17982,
  "OGA-BY-3.0": 10310,
  "OGA-BY-4.0": 31772,
  "GPL-2.0": 5,
  "GPL-3.0": 6,
};

/** The licence terms a `license` token names; none for a licence the site does not offer (no art there has it). */
const licenseTids = (token: string) =>
  Object.entries(LICENSE_TIDS).flatMap(([id, tid]) => (id.toLowerCase() === token || licenseFamily(id) === token ? [tid] : []));

/**
 * The search page's own narrowing for the filters and sort: art offered under any of the wanted licences, and
 * `sort_by=created` (post date, newest first). Undefined when the wanted licences are none the site offers.
 */
function narrowing(query: SourceQuery): string | undefined {
  const tids = query.filters.license?.flatMap(licenseTids);
  if (tids && !tids.length) return undefined;
  const licences = [...new Set(tids ?? [])].map((tid, i) => `&field_art_licenses_tid%5B${i}%5D=${tid}`).join("");
  return `${licences}${query.sort === "newest" ? "&sort_by=created&sort_order=DESC" : ""}`;
}

/** The art types to ask for our types; material is searched as texture (OpenGameArt has no materials). */
function artTypesFor(types: readonly AssetType[]) {
  const wanted = new Set<AssetType>(types.map((t) => (t === "material" ? "texture" : t)));
  return ART_TYPES.filter((a) => wanted.has(a.type));
}

/** The advanced search (Drupal's form encoding: spaces as `+`) for the text, art types and narrowing, at a 0-based page. */
function listUrl(q: string, arts: readonly { tid: number }[], page: number, narrow = ""): string {
  const filters = arts.map(({ tid }, i) => `&field_art_type_tid%5B${i}%5D=${tid}`).join("");
  return `${SITE}/art-search-advanced?keys=${encodeURIComponent(q.trim()).replace(/%20/g, "+")}${filters}${narrow}${page > 0 ? `&page=${page}` : ""}`;
}
const contentUrl = (slug: string) => `${SITE}/content/${slug}`;

/** One result page: its cards, the "Displaying … of N" total and its number of rows. A page without the art view throws. */
async function listPage(io: SourceIo, url: string, type: AssetType): Promise<{ assets: Asset[]; total: number; rows: number }> {
  const $ = loadHtml((await io.text(url)).text);
  const view = $(".view-id-art").first();
  if (!view.length) throw shapeError(ID, url, `${url} has no art search view (the page layout changed)`);
  const rows = view.find(".view-content .views-row");
  const header = /Displaying\s+\d+\s*-\s*\d+\s+of\s+([\d,]+)/i.exec(view.find(".view-header").first().text());
  if (!header && rows.length) throw shapeError(ID, url, `${url} lists results without a "Displaying … of N" header`);
  const assets = rows.toArray().flatMap((el) => {
    const link = $(el).find(".art-preview-title a").first();
    const path = httpUrl(link.attr("href"), SITE);
    const slug = /^\/content\/([^/?#]+)\/?$/.exec(path ? new URL(path).pathname : "")?.[1];
    const title = link.text().trim();
    if (!slug || !title) return [];
    const thumbnailUrl = httpUrl($(el).find(".field-name-field-art-preview img").first().attr("src"), SITE);
    const nativeId = decodeURIComponent(slug);
    return [asset(nativeId, { title, type, url: contentUrl(nativeId), thumbnailUrl, price: { free: true }, downloadable: true })];
  });
  return { assets, total: header ? Number(header[1]!.replace(/,/g, "")) : 0, rows: rows.length };
}

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  const arts = artTypesFor(query.types);
  const narrow = narrowing(query);
  if ((query.types.length && !arts.length) || narrow === undefined) return { assets: [], total: 0, searchUrl: searchUrl(query) };
  // A card does not say its art type: it is known only when the asked art types agree on one of ours.
  const type: AssetType = new Set(arts.map((a) => a.type)).size === 1 ? arts[0]!.type : "other";
  const { pages, skip } = pageWindow(query.offset, query.limit, PAGE_SIZE);
  const assets: Asset[] = [];
  let total = 0;
  for (const [i, page] of pages.slice(0, MAX_PAGES).entries()) {
    const fetchPage = () => listPage(io, listUrl(query.q, arts, page - 1, narrow), type);
    const parsed = i === 0 ? await fetchPage() : await followUpPage(fetchPage, io.signal);
    if (!parsed) break;
    total = parsed.total;
    assets.push(...parsed.assets.slice(i === 0 ? skip : 0));
    if (parsed.rows < PAGE_SIZE || page * PAGE_SIZE >= total) break; // past the count, Drupal's pager answers its last page again
  }
  return { assets: assets.slice(0, query.limit), total, searchUrl: searchUrl(query) };
}

/** Licence names as OpenGameArt shows them, most permissive first: the first one found is the asset's. */
const PERMISSIVENESS = ["CC0-1.0", "OGA-BY-4.0", "OGA-BY-3.0", "CC-BY-4.0", "CC-BY-3.0", "CC-BY-SA-4.0", "CC-BY-SA-3.0", "GPL-3.0-only", "GPL-2.0-only"];
/** One licence as OpenGameArt names it; one without an SPDX id (OGA-BY) keeps the site's link to its text. */
export function licenseOf(name: string, href: string | undefined): License | undefined {
  const known = normalizeLicense(name);
  return known && !known.spdx && isHttpUrl(href) ? { ...known, url: href } : known;
}
const rank = (l: License) => {
  const i = PERMISSIVENESS.indexOf(l.spdx ?? /OGA-BY [34]\.0/.exec(l.name)?.[0].replace(" ", "-") ?? "");
  return i < 0 ? PERMISSIVENESS.length : i;
};

/** "Thursday, April 12, 2018 - 05:17" → "2018-04-12" (the site's time zone is not shown, so the day only). */
export function postDate(text: string): string | undefined {
  const [, name = "", day = "", year] = /([A-Za-z]+)\s+(\d{1,2}),\s+(\d{4})/.exec(text) ?? [];
  const month = monthNumber(name);
  return month && `${year}-${month}-${day.padStart(2, "0")}`;
}

/** A file's group by its format: archives, audio and images by kind; glb joins gltf; other model formats are their own group. */
function groupOf(format: string): string | undefined {
  if (/^(zip|rar|7z|gz|tgz|bz2|xz|tar)$/.test(format)) return "archive";
  if (/^(ogg|wav|mp3|flac|opus|mod|xm|it|s3m|mid|midi)$/.test(format)) return "audio";
  if (/^(png|jpg|jpeg|gif|bmp|tga|svg|webp|psd|xcf|ora|kra)$/.test(format)) return "image";
  return format === "glb" ? "gltf" : /^(blend|fbx|obj|dae|gltf|3ds|stl|x3d)$/.test(format) ? format : undefined;
}
const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

function filesOf($: CheerioAPI): AssetFile[] {
  return Array.from($(".field-name-field-art-files .file a"), (el) => {
    const url = httpUrl($(el).attr("href"), SITE);
    if (!url) return [];
    const { pathname } = new URL(url);
    const filename = ($(el).attr("download") ?? $(el).text()).trim() || fileNameOf(url);
    const format = extensionOf(filename) ?? extensionOf(pathname) ?? "unknown";
    const length = /length=(\d+)/.exec($(el).attr("type") ?? "")?.[1];
    return [compact({ url, filename, format, sizeBytes: length && Number(length), group: groupOf(format), requiresAuth: false })];
  }).flat();
}

async function getAsset(slug: string, io: SourceIo): Promise<AssetDetails | null> {
  const url = contentUrl(slug);
  const page = /^[a-z0-9][a-z0-9_-]*$/i.test(slug) ? await unlessGone(io.text(url)) : undefined;
  if (!page) return null;
  const $ = loadHtml(page.text);
  if (!$(".node").length) throw shapeError(ID, url, `${url} has no content node (the page layout changed)`);
  const node = $(".node-art.view-mode-full").first();
  if (!node.length) return null; // a collection, forum post or other node is not an art asset
  const field = (name: string) => node.find(`.field-name-${name}`);
  const title = collapse(field("title").first().text()) || $('meta[property="og:title"]').attr("content")?.trim();
  if (!title) throw shapeError(ID, url, `${url} has an art node without a title`);
  const typeLink = field("field-art-type").find("a").first();
  const tid = Number(/field_art_type_tid(?:%5B%5D|\[\])=(\d+)/.exec(typeLink.attr("href") ?? "")?.[1]);
  const art = ART_TYPES.find((a) => a.tid === tid) ?? ART_TYPES.find((a) => a.label.toLowerCase() === collapse(typeLink.text()).toLowerCase());
  const licences = Array.from(field("field-art-licenses").find(".field-item"), (item) => {
    const name = collapse($(item).find(".license-name").text() || $(item).text());
    const license = name ? licenseOf(name, $(item).find("a").first().attr("href")) : undefined;
    return license ? [{ name, license }] : [];
  }).flat();
  const [first, ...others] = licences.sort((a, b) => rank(a.license) - rank(b.license));
  const bodyEl = field("body").first();
  const blocks = Array.from(bodyEl.find("p, li, h1, h2, h3, h4, h5, h6"), (el) => collapse($(el).text())).filter(Boolean);
  const body = blocks.length ? blocks.join("\n") : collapse(bodyEl.text());
  const notice = collapse(field("field-copyright-notice").find(".field-item").first().text());
  const description = [body.length > 2000 ? `${body.slice(0, 1999)}…` : body, notice && `Copyright/attribution notice: ${notice}`];
  if (others.length) description.push(`Also available under: ${others.map((l) => l.name).join(", ")}.`);
  const files = filesOf($);
  const details = asset(slug, {
    title,
    description: description.filter(Boolean).join("\n\n"),
    type: art?.type ?? "other",
    tags: Array.from(field("field-art-tags").find(".field-item a"), (a) => collapse($(a).text())).filter(Boolean),
    categories: art && [art.label],
    url,
    thumbnailUrl: httpUrl($('meta[property="og:image"]').attr("content") ?? field("field-art-preview").find("a").first().attr("href"), SITE),
    author: collapse(field("author-submitter").find(".username").first().text()),
    license: first?.license,
    price: { free: true },
    formats: [...new Set(files.map((f) => f.format).filter((f) => f !== "unknown"))],
    downloadable: files.length > 0,
    createdAt: postDate(field("post-date").first().text()),
  });
  return { ...details, files };
}

async function census(io: SourceIo): Promise<CensusBody> {
  const results = await Promise.allSettled(ART_TYPES.map(async (art) => ({ art, total: (await listPage(io, listUrl("", [art], 0), art.type)).total })));
  // A page that answered but changed is an error of this source; only failed requests are skipped.
  const failed = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
  const changed = failed.find((reason) => !(reason instanceof UpstreamError));
  if (changed || failed.length === results.length) throw changed ?? failed[0];
  const counted = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  const missing = ART_TYPES.filter((_, i) => results[i]!.status === "rejected").map((a) => a.label);
  const size = (c: { total: number }) => c.total;
  const total = sum(counted, size);
  return compact({
    total,
    atLeast: missing.length ? true : undefined,
    free: total,
    byType: countBy(counted, (c) => c.art.type, size),
    categories: Object.fromEntries(counted.map((c) => [c.art.label, c.total])),
    method:
      `The "Displaying 1 - 24 of N" count of OpenGameArt's advanced search with no search text, one request per art type ` +
      `(${ART_TYPES.map((a) => `${a.label} ${a.tid}`).join(", ")}); everything on the site is free.` +
      (missing.length ? ` Not counted this time (request failed): ${missing.join(", ")}; the total is a lower bound.` : ""),
  });
}

/** The same search on the site: the search text, the art types of the asked types and the narrowing (all art is free). */
const searchUrl = (query: SourceQuery) => listUrl(query.q, artTypesFor(query.types), 0, narrowing(query));

export const opengameart = defineSource(
  {
    id: ID,
    name: "OpenGameArt.org",
    homepage: SITE,
    description:
      "Free game art under open licences (CC0, CC-BY, CC-BY-SA, OGA-BY, GPL): 2D sprites, 3D models, textures, music and sound effects; " +
      "best for free 2D/retro game art and audio.",
    assetTypes: ["model", "sprite", "texture", "audio", "other"],
    access: "scrape",
    pricing: "free",
    supportsDownload: true,
    unit: "assets",
    // Result cards hold only a title and a thumbnail: the site narrows, the listings carry nothing to check.
    filtering: { upstream: ["license", "newest"], listed: [] },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
