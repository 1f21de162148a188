/**
 * OpenGameArt.org (https://opengameart.org): free game art (2D, 3D, textures, music, sound effects)
 * under per-asset open licences. A Drupal 7 site without an API: this source reads its HTML.
 * Live: searched through the site's advanced search at search time.
 *
 * Upstream shapes used here:
 * - `/art-search-advanced?keys=<q>&field_art_type_tid%5B0%5D=<tid>[&page=N]` → the `view-id-art` view:
 *   a header "Displaying 1 - 24 of 182", 24 `.views-row` cards (title link `/content/<slug>`, a
 *   thumbnail) and a 0-based pager. Art type ids, from the page's own filter: 9 = 2D Art,
 *   10 = 3D Art, 7273 = Concept Art, 14 = Texture, 12 = Music, 13 = Sound Effect, 11 = Document.
 * - `/content/<slug>` → the art node: author, post date, art type, tags, licence(s), preview
 *   images, body, attribution notice and files (`/sites/default/files/…`, plain GETs, with
 *   `type="…; length=<bytes>"` and a download count).
 */
import { load, type CheerioAPI } from "cheerio";
import type { Source, SourceContext, SourceQuery } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, AssetType, License, SourceCensus } from "../core/schemas/index.ts";
import { normalizeLicense } from "../core/license.ts";
import { UpstreamError } from "../core/http/types.ts";
import { followUpPage } from "./kit/page-window.ts";
import { unlessGone } from "./kit/fetch.ts";
import { httpUrl } from "./kit/url.ts";

const ID = "opengameart";
const NAME = "OpenGameArt.org";
const SITE = "https://opengameart.org";
const PAGE_SIZE = 24;
/** Result pages one search may read at most (limit ≤ 100 spans at most 6 pages of 24). */
const MAX_PAGES = 6;

/** OpenGameArt's art types (taxonomy term ids of `field_art_type_tid`) and ours. */
const ART_TYPES = [
  { tid: 9, label: "2D Art", type: "sprite" },
  { tid: 10, label: "3D Art", type: "model" },
  { tid: 7273, label: "Concept Art", type: "other" },
  { tid: 14, label: "Texture", type: "texture" },
  { tid: 12, label: "Music", type: "audio" },
  { tid: 13, label: "Sound Effect", type: "audio" },
  { tid: 11, label: "Document", type: "other" },
] as const satisfies ReadonlyArray<{ tid: number; label: string; type: AssetType }>;
type ArtType = (typeof ART_TYPES)[number];

/** The art types to ask for our types; material is searched as texture (OpenGameArt has no materials). */
function artTypesFor(types: readonly AssetType[]): ArtType[] {
  const wanted = new Set<AssetType>(types.map((t) => (t === "material" ? "texture" : t)));
  return ART_TYPES.filter((a) => wanted.has(a.type));
}

/** Drupal's form encoding of the search text (spaces as `+`). */
const formEncode = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");

function listUrl(q: string, tids: readonly number[], page: number): string {
  const filters = tids.map((tid, i) => `&field_art_type_tid%5B${i}%5D=${tid}`).join("");
  return `${SITE}/art-search-advanced?keys=${formEncode(q.trim())}${filters}${page > 0 ? `&page=${page}` : ""}`;
}

const contentUrl = (slug: string) => `${SITE}/content/${slug}`;

/** The slug of a `/content/<slug>` link, or undefined. */
function slugOf(href: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const m = /^\/content\/([^/?#]+)\/?$/.exec(new URL(href, SITE).pathname);
    return m ? decodeURIComponent(m[1]!) : undefined;
  } catch {
    return undefined;
  }
}

/** One result page: its cards and the "Displaying … of N" total. A page without the art view throws. */
function parseList(html: string, url: string, type: AssetType): { assets: Asset[]; total: number; rows: number } {
  const $ = load(html);
  const view = $(".view-id-art").first();
  if (!view.length) throw new Error(`opengameart: ${url} has no art search view (the page layout changed)`);
  const rows = view.find(".view-content .views-row");
  const header = /Displaying\s+\d+\s*-\s*\d+\s+of\s+([\d,]+)/i.exec(view.find(".view-header").first().text());
  if (!header && rows.length) throw new Error(`opengameart: ${url} lists results without a "Displaying … of N" header`);
  const total = header ? Number(header[1]!.replace(/,/g, "")) : 0;
  const assets: Asset[] = [];
  rows.each((_, el) => {
    const row = $(el);
    const link = row.find(".art-preview-title a").first();
    const slug = slugOf(link.attr("href"));
    const title = link.text().trim();
    if (!slug || !title) return;
    const thumb = httpUrl(row.find(".field-name-field-art-preview img").first().attr("src"), SITE);
    assets.push({
      id: `${ID}:${slug}`,
      provider: ID,
      nativeId: slug,
      title,
      type,
      tags: [],
      url: contentUrl(slug),
      ...(thumb ? { thumbnailUrl: thumb } : {}),
      price: { free: true },
      downloadable: true,
    });
  });
  return { assets, total, rows: rows.length };
}

async function search(query: SourceQuery, ctx: SourceContext) {
  const link = searchUrl(query);
  const arts = artTypesFor(query.types);
  if (query.types.length && !arts.length) return { assets: [], total: 0, searchUrl: link };
  // A card does not say its art type: it is known only when the asked art types agree on one of ours.
  const ours = new Set(arts.map((a) => a.type));
  const type: AssetType = ours.size === 1 ? [...ours][0]! : "other";
  const tids = arts.map((a) => a.tid);

  let page = Math.floor(query.offset / PAGE_SIZE);
  let skip = query.offset % PAGE_SIZE;
  const assets: Asset[] = [];
  let total = 0;
  for (let i = 0; i < MAX_PAGES; i++, page++) {
    const url = listUrl(query.q, tids, page);
    const fetchList = async () => parseList((await ctx.http.getText(url, { signal: ctx.signal })).text, url, type);
    // The window's first page must answer; a later one that fails ends the window with what was gathered.
    const parsed = i === 0 ? await fetchList() : await followUpPage(fetchList, ctx.signal);
    if (!parsed) break;
    total = parsed.total;
    assets.push(...parsed.assets.slice(skip));
    skip = 0;
    if (assets.length >= query.limit || parsed.rows < PAGE_SIZE || (page + 1) * PAGE_SIZE >= total) break;
  }
  return { assets: assets.slice(0, query.limit), total, searchUrl: link };
}

/** Licence names as OpenGameArt shows them, most permissive first: the first one found is the asset's. */
const PERMISSIVENESS: readonly string[] = [
  "CC0-1.0",
  "OGA-BY-4.0",
  "OGA-BY-3.0",
  "CC-BY-4.0",
  "CC-BY-3.0",
  "CC-BY-SA-4.0",
  "CC-BY-SA-3.0",
  "GPL-3.0-only",
  "GPL-2.0-only",
];

/**
 * One licence as OpenGameArt names it. Two cases `normalizeLicense` would get wrong are handled here:
 * OGA-BY 4.0 (its table knows only 3.0) and the LGPL (which its GPL pattern would catch): the
 * former keeps its known terms, the latter stays an unknown licence with its own name.
 */
export function licenseOf(name: string, href: string | undefined): License | undefined {
  const url = href && /^https?:\/\//.test(href) ? href : undefined;
  const known = normalizeLicense(name);
  if (!known) return undefined;
  return known.spdx || !url ? known : { ...known, url };
}

const rank = (l: License) => {
  const key = l.spdx ?? (/OGA-BY 4\.0/.test(l.name) ? "OGA-BY-4.0" : /OGA-BY 3\.0/.test(l.name) ? "OGA-BY-3.0" : undefined);
  const i = key ? PERMISSIVENESS.indexOf(key) : -1;
  return i < 0 ? PERMISSIVENESS.length : i;
};

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** "Thursday, April 12, 2018 - 05:17" → "2018-04-12" (the site's time zone is not shown, so the day only). */
export function postDate(text: string): string | undefined {
  const m = /([A-Za-z]+)\s+(\d{1,2}),\s+(\d{4})/.exec(text);
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[1]!.toLowerCase());
  if (month < 0) return undefined;
  return `${m[3]}-${String(month + 1).padStart(2, "0")}-${m[2]!.padStart(2, "0")}`;
}

const ARCHIVES = new Set(["zip", "rar", "7z", "gz", "tgz", "bz2", "xz", "tar"]);
const AUDIO = new Set(["ogg", "wav", "mp3", "flac", "opus", "mod", "xm", "it", "s3m", "mid", "midi"]);
const IMAGES = new Set(["png", "jpg", "jpeg", "gif", "bmp", "tga", "svg", "webp", "psd", "xcf", "ora", "kra"]);
const MODEL_GROUPS = new Set(["blend", "fbx", "obj", "dae", "gltf", "glb", "3ds", "stl", "x3d"]);

function groupOf(format: string): string | undefined {
  if (ARCHIVES.has(format)) return "archive";
  if (AUDIO.has(format)) return "audio";
  if (IMAGES.has(format)) return "image";
  if (format === "glb") return "gltf";
  if (MODEL_GROUPS.has(format)) return format;
  return undefined;
}

function filesOf($: CheerioAPI): AssetFile[] {
  const files: AssetFile[] = [];
  $(".field-name-field-art-files .file a").each((_, el) => {
    const a = $(el);
    const url = httpUrl(a.attr("href"), SITE);
    if (!url) return;
    const filename = (a.attr("download") ?? a.text()).trim() || decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "");
    const format = /\.([a-z0-9]{1,8})$/i.exec(filename)?.[1]?.toLowerCase() ?? /\.([a-z0-9]{1,8})$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? "unknown";
    const length = /length=(\d+)/.exec(a.attr("type") ?? "")?.[1];
    const group = groupOf(format);
    files.push({
      url,
      filename,
      format,
      ...(length ? { sizeBytes: Number(length) } : {}),
      ...(group ? { group } : {}),
      requiresAuth: false,
    });
  });
  return files;
}

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

async function getAsset(slug: string, ctx: SourceContext): Promise<AssetDetails | null> {
  if (!/^[a-z0-9][a-z0-9_-]*$/i.test(slug)) return null;
  const url = contentUrl(slug);
  const page = await unlessGone(ctx.http.getText(url, { signal: ctx.signal }));
  if (!page) return null;
  const html = page.text;
  const $ = load(html);
  if (!$(".node").length) throw new Error(`opengameart: ${url} has no content node (the page layout changed)`);
  const node = $(".node-art.view-mode-full").first();
  // A collection, forum post or other node is not an art asset.
  if (!node.length) return null;

  const title = collapse(node.find(".field-name-title").first().text()) || $('meta[property="og:title"]').attr("content")?.trim();
  if (!title) throw new Error(`opengameart: ${url} has an art node without a title`);
  const author = collapse(node.find(".field-name-author-submitter .username").first().text());
  const created = postDate(node.find(".field-name-post-date").first().text());
  const typeLink = node.find(".field-name-field-art-type a").first();
  const tid = Number(/field_art_type_tid(?:%5B%5D|\[\])=(\d+)/.exec(typeLink.attr("href") ?? "")?.[1]);
  const art = ART_TYPES.find((a) => a.tid === tid) ?? ART_TYPES.find((a) => a.label.toLowerCase() === collapse(typeLink.text()).toLowerCase());
  const tags = node
    .find(".field-name-field-art-tags .field-item a")
    .map((_, a) => collapse($(a).text()))
    .get()
    .filter(Boolean);

  const named = node
    .find(".field-name-field-art-licenses .field-item")
    .map((_, item) => {
      const name = collapse($(item).find(".license-name").text() || $(item).text());
      return { name, license: licenseOf(name, $(item).find("a").first().attr("href")) };
    })
    .get()
    .filter((l): l is { name: string; license: License } => Boolean(l.name && l.license));
  const ordered = [...named].sort((a, b) => rank(a.license) - rank(b.license));
  const license = ordered[0]?.license;
  const others = ordered.slice(1).map((l) => l.name);

  const bodyEl = node.find(".field-name-body").first();
  const blocks = bodyEl.find("p, li, h1, h2, h3, h4, h5, h6").map((_, el) => collapse($(el).text())).get().filter(Boolean);
  const body = blocks.length ? blocks.join("\n") : collapse(bodyEl.text());
  const notice = collapse(node.find(".field-name-field-copyright-notice .field-item").first().text());
  const description = [
    body.length > 2000 ? `${body.slice(0, 1999)}…` : body,
    notice ? `Copyright/attribution notice: ${notice}` : "",
    others.length ? `Also available under: ${others.join(", ")}.` : "",
  ]
    .filter(Boolean)
    .join("\n\n");

  const thumb = httpUrl($('meta[property="og:image"]').attr("content") ?? node.find(".field-name-field-art-preview a").first().attr("href"), SITE);
  const files = filesOf($);
  const formats = [...new Set(files.map((f) => f.format).filter((f) => f !== "unknown"))];
  return {
    id: `${ID}:${slug}`,
    provider: ID,
    nativeId: slug,
    title,
    ...(description ? { description } : {}),
    type: art?.type ?? "other",
    tags,
    ...(art ? { categories: [art.label] } : {}),
    url,
    ...(thumb ? { thumbnailUrl: thumb } : {}),
    ...(author ? { author } : {}),
    ...(license ? { license } : {}),
    price: { free: true },
    ...(formats.length ? { formats } : {}),
    downloadable: files.length > 0,
    ...(created ? { createdAt: created } : {}),
    files,
  };
}

/** One listing per art type, empty search text: "Displaying 1 - 24 of N" is the count of that type. */
async function census(ctx: SourceContext): Promise<SourceCensus> {
  const results = await Promise.allSettled(
    ART_TYPES.map(async (art) => {
      const url = listUrl("", [art.tid], 0);
      const { text } = await ctx.http.getText(url, { signal: ctx.signal });
      return { art, total: parseList(text, url, art.type).total };
    }),
  );
  const counted: Array<{ art: ArtType; total: number }> = [];
  const missing: string[] = [];
  results.forEach((r, i) => {
    if (r.status === "fulfilled") counted.push(r.value);
    // A page that answered but changed is an error of this source; only failed requests are skipped.
    else if (r.reason instanceof UpstreamError) missing.push(ART_TYPES[i]!.label);
    else throw r.reason;
  });
  if (!counted.length) throw (results[0] as PromiseRejectedResult).reason;

  const byType: Record<string, number> = {};
  const categories: Record<string, number> = {};
  let total = 0;
  for (const { art, total: n } of counted) {
    byType[art.type] = (byType[art.type] ?? 0) + n;
    categories[art.label] = n;
    total += n;
  }
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total,
    ...(missing.length ? { atLeast: true } : {}),
    free: total,
    byType,
    categories,
    unit: "assets",
    method:
      `The "Displaying 1 - 24 of N" count of OpenGameArt's advanced search with no search text, one request per art type ` +
      `(${ART_TYPES.map((a) => `${a.label} ${a.tid}`).join(", ")}); everything on the site is free.` +
      (missing.length ? ` Not counted this time (request failed): ${missing.join(", ")}; the total is a lower bound.` : ""),
    countedAt: ctx.now().toISOString(),
  };
}

/** The same search on the site: the search text and the art types of the asked types (all art is free). */
function searchUrl(query: SourceQuery): string {
  return listUrl(query.q, artTypesFor(query.types).map((a) => a.tid), 0);
}

export const opengameart: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Free game art under open licences (CC0, CC-BY, CC-BY-SA, OGA-BY, GPL): 2D sprites, 3D models, textures, music and sound effects; best for free 2D/retro game art and audio.",
  assetTypes: ["model", "sprite", "texture", "audio", "other"],
  access: "scrape",
  pricing: "free",
  supportsDownload: true,
  mode: "live",
  unit: "assets",
  searchUrl,
  search,
  getAsset,
  census,
};
