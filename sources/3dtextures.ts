/**
 * 3DTextures (https://3dtextures.me): free CC0 PBR textures by Gendo, published as WordPress
 * posts. Live: searched through the site's WordPress REST API.
 *
 * Upstream shapes used here:
 * - `GET /wp-json/wp/v2/posts?search=<q>&_embed=wp:term&per_page=<n>&page=<n>&_fields=…` → an array
 *   of posts `{ id, date, slug, link, title.rendered, excerpt, categories, jetpack_featured_media_url,
 *   _embedded["wp:term"] }` (terms: post tags and categories, e.g. "Patreon Exclusive"). The total is
 *   in the `X-WP-Total` header when the server sends it; a page past the end answers HTTP 400.
 * - `GET /wp-json/wp/v2/posts?slug=<slug>&_embed=wp:term&_fields=…,content` → `[post]` or `[]`; the
 *   post's `content.rendered` holds the download link (a Google Drive folder) and the map size.
 *
 * Downloads go through Google Drive (or Patreon for exclusive textures): `requiresAuth` links, never
 * direct files, so the assets are not `downloadable`.
 */
import { z } from "zod";
import * as cheerio from "cheerio";
import type { Source, SourceContext, SourceQuery, SourceSearchResult } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, AssetType, SourceCensus } from "../core/schemas/index.ts";
import { licenseById } from "../core/license.ts";
import { UpstreamError } from "../core/http/types.ts";
import { fetchJson, fetchJsonWithHeaders, shapeError, unlessGone } from "./kit/fetch.ts";
import { pageWindow } from "./kit/page-window.ts";
import { DAY_MS, htmlText, pixelsToK, typeFilter } from "./kit/texture-sites.ts";
import { leadingPages } from "./kit/page-window.ts";

const ID = "3dtextures";
const NAME = "3DTextures";
const SITE = "https://3dtextures.me";
const API = `${SITE}/wp-json/wp/v2/posts`;
const FIELDS = "id,date,slug,link,title,excerpt,categories,jetpack_featured_media_url,_links,_embedded";
/** Posts per census request (the WordPress maximum). */
const CENSUS_PER_PAGE = 100;
const EXCLUSIVE = "patreon-exclusive";

const Term = z.looseObject({ name: z.string(), slug: z.string(), taxonomy: z.string() });
const Post = z.looseObject({
  id: z.number(),
  date: z.string().optional(),
  slug: z.string().min(1),
  link: z.string(),
  title: z.looseObject({ rendered: z.string() }),
  jetpack_featured_media_url: z.string().nullish(),
  content: z.looseObject({ rendered: z.string() }).optional(),
  _embedded: z.looseObject({ "wp:term": z.array(z.array(z.unknown())).optional() }).optional(),
});
type Post = z.infer<typeof Post>;

export function postsUrl(q: string, page: number, perPage: number): string {
  const search = q.trim();
  return `${API}?${search ? `search=${encodeURIComponent(search)}&` : ""}_embed=wp:term&per_page=${perPage}&page=${page}&_fields=${FIELDS}`;
}

const postUrl = (slug: string) => `${API}?slug=${encodeURIComponent(slug)}&_embed=wp:term&_fields=${FIELDS},content`;

function termsOf(post: Post): Array<z.infer<typeof Term>> {
  return (post._embedded?.["wp:term"] ?? []).flat().flatMap((raw) => {
    const term = Term.safeParse(raw);
    return term.success ? [term.data] : [];
  });
}

const isExclusive = (post: Post) => termsOf(post).some((t) => t.taxonomy === "category" && t.slug === EXCLUSIVE);

/** The map size a post states ("… texture, 1024 x 1024, …") as a `k` resolution. */
function resolutionOf(html: string): string | undefined {
  const m = /(\d{3,5})\s*[x×]\s*(\d{3,5})/i.exec(htmlText(html));
  return m ? pixelsToK(Math.max(Number(m[1]), Number(m[2]))) : undefined;
}

function toAsset(post: Post): Asset {
  const terms = termsOf(post);
  const tags = [...new Set(terms.filter((t) => t.taxonomy === "post_tag").map((t) => t.name))];
  const categories = [...new Set(terms.filter((t) => t.taxonomy === "category").map((t) => t.name))];
  const thumbnail = post.jetpack_featured_media_url;
  return {
    id: `${ID}:${post.slug}`,
    provider: ID,
    nativeId: post.slug,
    title: htmlText(post.title.rendered) || post.slug,
    type: "texture",
    tags,
    categories,
    url: post.link,
    ...(thumbnail && /^https?:\/\//.test(thumbnail) ? { thumbnailUrl: thumbnail } : {}),
    author: "Gendo",
    license: licenseById("CC0-1.0"),
    // Patreon-exclusive textures are for the site's Patreon supporters.
    price: { free: !isExclusive(post) },
    downloadable: false,
    ...(post.date ? { createdAt: post.date } : {}),
  };
}

/** Download links of a post: Google Drive and Patreon posts, all behind a web page or a login. */
function filesOf(post: Post): AssetFile[] {
  const html = post.content?.rendered ?? "";
  const $ = cheerio.load(html);
  const resolution = resolutionOf(html);
  const urls = new Set<string>();
  $("a[href]").each((_, el) => {
    const href = $(el).attr("href") ?? "";
    let url: URL;
    try {
      url = new URL(href, SITE);
    } catch {
      return;
    }
    const drive = /(^|\.)(drive|docs)\.google\.com$/.test(url.hostname);
    const patreonPost = /(^|\.)patreon\.com$/.test(url.hostname) && url.pathname.startsWith("/posts/");
    if (drive || patreonPost) urls.add(url.href);
  });
  return [...urls].map((url, i) => ({
    url,
    filename: `${post.slug}${i ? `-${i + 1}` : ""}.zip`,
    format: "zip",
    ...(resolution ? { resolution } : {}),
    group: "archive",
    requiresAuth: true,
  }));
}

/** One page of posts and the X-WP-Total header; a page past the end (HTTP 400) is empty. */
async function postsPage(url: string, ctx: SourceContext): Promise<{ posts: Post[]; total?: number }> {
  let answer: { body: unknown; headers: Record<string, string> };
  try {
    answer = await fetchJsonWithHeaders(NAME, url, ctx);
  } catch (err) {
    if (err instanceof UpstreamError && err.status === 400) return { posts: [] };
    throw err;
  }
  if (!Array.isArray(answer.body)) throw shapeError(NAME, url, "posts JSON is not an array");
  const posts = answer.body.flatMap((raw) => {
    const post = Post.safeParse(raw);
    return post.success ? [post.data] : [];
  });
  if (answer.body.length > 0 && posts.length === 0) throw shapeError(NAME, url, "posts have an unexpected shape");
  const total = Number(answer.headers["x-wp-total"]);
  return { posts, ...(answer.headers["x-wp-total"] && Number.isInteger(total) ? { total } : {}) };
}

const fits = (types: readonly AssetType[]) => types.length === 0 || types.includes("texture") || types.includes("material");

async function search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult> {
  const link = searchUrl(query);
  if (!fits(query.types)) return { assets: [], total: 0, searchUrl: link };
  const perPage = Math.min(query.limit, 100);
  const { pages, skip } = pageWindow(query.offset, query.limit, perPage);
  // A later page that fails ends the window there: the first page's results still stand.
  const answers = await leadingPages(pages.map((page) => postsPage(postsUrl(query.q, page, perPage), ctx)), ctx.signal);
  const all = answers
    .flatMap((a) => a.posts)
    .slice(skip, skip + query.limit)
    .map(toAsset);
  const wanted = typeFilter(query.types);
  const assets = all.filter((a) => wanted(a.type) && (!query.free || a.price?.free));
  const total = answers[0]?.total;
  return { assets, ...(total !== undefined && assets.length === all.length ? { total } : {}), searchUrl: link };
}

async function getAsset(slug: string, ctx: SourceContext): Promise<AssetDetails | null> {
  const url = postUrl(slug);
  const body = await unlessGone(fetchJson(NAME, url, ctx));
  if (body === undefined) return null;
  if (!Array.isArray(body)) throw shapeError(NAME, url, "post JSON is not an array");
  const raw = body.find((p) => p && typeof p === "object" && (p as { slug?: unknown }).slug === slug);
  if (!raw) return null;
  const post = Post.safeParse(raw);
  if (!post.success || !post.data.content) throw shapeError(NAME, url, "post has no content.rendered");
  const files = filesOf(post.data);
  const resolutions = [...new Set(files.flatMap((f) => f.resolution ?? []))];
  return { ...toAsset(post.data), ...(resolutions.length ? { resolutions } : {}), files };
}

async function census(ctx: SourceContext): Promise<SourceCensus> {
  const url = postsUrl("", 1, CENSUS_PER_PAGE);
  const { posts, total: header } = await postsPage(url, ctx);
  const now = ctx.now();
  const since = now.getTime() - 30 * DAY_MS;
  // Every post was seen when the page holds the whole count (or, without X-WP-Total, is not full).
  const whole = header !== undefined ? posts.length >= header : posts.length < CENSUS_PER_PAGE;
  const total = header ?? posts.length;
  const lowerBound = header === undefined && !whole;
  let added = 0;
  let newest: Post | undefined;
  for (const post of posts) {
    const date = post.date ? Date.parse(post.date) : NaN;
    if (Number.isNaN(date) || date > now.getTime()) continue;
    if (date > since) added++;
    if (!newest || date > Date.parse(newest.date!)) newest = post;
  }
  const categories: Record<string, number> = {};
  for (const post of posts) {
    for (const c of new Set(termsOf(post).filter((t) => t.taxonomy === "category").map((t) => t.name))) {
      categories[c] = (categories[c] ?? 0) + 1;
    }
  }
  const exclusive = posts.filter(isExclusive).length;
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total,
    ...(lowerBound ? { atLeast: true } : {}),
    // Free and category counts need every post; they are given only when one page held them all.
    ...(whole ? { free: total - exclusive, categories } : {}),
    byType: { texture: total },
    byLicense: { "CC0-1.0": total },
    unit: "assets",
    addedLast30Days: added,
    ...(newest ? { highlights: [{ label: "Newest texture", title: htmlText(newest.title.rendered), url: newest.link }] } : {}),
    method:
      header !== undefined
        ? "3DTextures WordPress REST API: X-WP-Total of the posts listing; last 30 days from the newest 100 posts"
        : "3DTextures WordPress REST API: posts of the newest page counted (no X-WP-Total header was sent)",
    countedAt: now.toISOString(),
  };
}

/** The site's own WordPress search. */
function searchUrl(query: SourceQuery): string {
  const q = query.q.trim();
  return q ? `${SITE}/?s=${encodeURIComponent(q).replace(/%20/g, "+")}` : `${SITE}/`;
}

export const threeDTextures: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for free CC0 stylised and realistic PBR texture sets; downloads are Google Drive links on the site.",
  assetTypes: ["texture"],
  access: "api",
  pricing: "free",
  license: licenseById("CC0-1.0"),
  supportsDownload: false,
  mode: "live",
  unit: "assets",
  searchUrl,
  search,
  getAsset,
  census,
};
