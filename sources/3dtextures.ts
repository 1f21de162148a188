/**
 * 3DTextures (https://3dtextures.me): free CC0 PBR textures by Gendo, WordPress posts searched live through the site's REST API
 * (terms embedded: post tags, and categories such as "Patreon Exclusive"; the total is the `X-WP-Total` header, when sent).
 * A post's content holds its download links: Google Drive (or Patreon for exclusive textures), `requiresAuth` links, never
 * direct files, so the assets are not `downloadable`.
 */

import { z } from "zod";
import { licenseById } from "../core/model/license.ts";
import { type Asset, type AssetDetails, type AssetFile, assetMaker, compact } from "./kit/asset.ts";
import { addedLast30Days, countBy, latest } from "./kit/census.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { type SourceIo, shapeError, unlessGone } from "./kit/fetch.ts";
import { LICENSE_TERMS, type Sort } from "./kit/filters.ts";
import { htmlText, loadHtml } from "./kit/html.ts";
import { parseList } from "./kit/list.ts";
import { windowPages } from "./kit/page-window.ts";
import { cc0Site, keepAsked, pixelsToK, typeFilter } from "./kit/texture-sites.ts";
import { httpUrl } from "./kit/url.ts";

const ID = "3dtextures";
const SITE = "https://3dtextures.me";
const API = `${SITE}/wp-json/wp/v2/posts`;
const FIELDS = "id,date,slug,link,title,excerpt,categories,jetpack_featured_media_url,_links,_embedded";
const DESCRIPTION = "Best for free CC0 stylised and realistic PBR texture sets; downloads are Google Drive links on the site.";
const CENSUS_PER_PAGE = 100; // posts per census request: the WordPress maximum
const asset = assetMaker(ID);

const Term = z.looseObject({ name: z.string(), slug: z.string(), taxonomy: z.string() });
const Rendered = z.looseObject({ rendered: z.string() });
const Post = z
  .looseObject({ date: z.string().optional(), slug: z.string().min(1), link: z.string(), title: Rendered, jetpack_featured_media_url: z.string().nullish() })
  .extend({ content: Rendered.optional(), _embedded: z.looseObject({ "wp:term": z.array(z.array(z.unknown())).optional() }).optional() });
type Post = z.infer<typeof Post>;

/** WordPress' `orderby=date&order=desc` (newest posts first) on sort=newest; otherwise the API's own order. */
const orderOf = (sort: Sort) => (sort === "newest" ? "orderby=date&order=desc&" : "");
export const postsUrl = (q: string, page: number, perPage: number, sort: Sort = "relevance") =>
  `${API}?${q.trim() ? `search=${encodeURIComponent(q.trim())}&` : ""}${orderOf(sort)}_embed=wp:term&per_page=${perPage}&page=${page}&_fields=${FIELDS}`;

/** A post's embedded terms of one taxonomy (`post_tag`, `category`). */
const termsOf = (post: Post, taxonomy: string) =>
  (post._embedded?.["wp:term"] ?? [])
    .flat()
    .flatMap((raw) => Term.safeParse(raw).data ?? [])
    .filter((t) => t.taxonomy === taxonomy);
const namesOf = (post: Post, taxonomy: string) => [...new Set(termsOf(post, taxonomy).map((t) => t.name))];
const isExclusive = (post: Post) => termsOf(post, "category").some((t) => t.slug === "patreon-exclusive");

/** A post as an asset; its categories stay a list even when empty, as results of this source always listed them. */
function toAsset(post: Post, resolutions?: string[]): Asset {
  const fields = asset(post.slug, {
    title: htmlText(post.title.rendered) || post.slug,
    type: "texture",
    tags: namesOf(post, "post_tag"),
    url: post.link,
    thumbnailUrl: post.jetpack_featured_media_url,
    author: "Gendo",
    license: licenseById("CC0-1.0"),
    // Patreon-exclusive textures are for the site's Patreon supporters.
    price: { free: !isExclusive(post) },
    resolutions,
    downloadable: false,
    createdAt: post.date,
  });
  return { ...fields, categories: namesOf(post, "category") };
}

const isDownload = (url: URL) =>
  /(^|\.)(drive|docs)\.google\.com$/.test(url.hostname) || (/(^|\.)patreon\.com$/.test(url.hostname) && url.pathname.startsWith("/posts/"));

/** A post's links to Google Drive or Patreon posts, all behind a web page or a login, at the map size it states ("1024 x 1024"). */
function filesOf(post: Post): AssetFile[] {
  const $ = loadHtml(post.content?.rendered ?? "");
  const size = /(\d{3,5})\s*[x×]\s*(\d{3,5})/i.exec($.root().text());
  const resolution = size ? pixelsToK(Math.max(Number(size[1]), Number(size[2]))) : undefined;
  const urls = new Set([...$("a[href]")].flatMap((el) => httpUrl($(el).attr("href"), SITE) ?? []).filter((href) => isDownload(new URL(href))));
  const filename = (i: number) => `${post.slug}${i ? `-${i + 1}` : ""}.zip`;
  return [...urls].map((url, i) => compact({ url, filename: filename(i), format: "zip", resolution, group: "archive", requiresAuth: true }));
}

/** One page of posts and the X-WP-Total header; a page past the end (HTTP 400) is empty. */
async function postsPage(url: string, io: SourceIo): Promise<{ items: Post[]; total?: number }> {
  const answer = await io.jsonWithHeaders(url).catch((err: { status?: number }) => (err.status === 400 ? undefined : Promise.reject(err)));
  if (!answer) return { items: [] };
  if (!Array.isArray(answer.body)) throw shapeError(ID, url, "posts JSON is not an array");
  const header = answer.headers["x-wp-total"];
  return { items: parseList(ID, url, Post, answer.body).items, total: header && Number.isInteger(Number(header)) ? Number(header) : undefined };
}

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  if (!["texture", "material"].some(typeFilter(query.types))) return { assets: [], total: 0, searchUrl: searchUrl(query) };
  const perPage = Math.min(query.limit, 100);
  const { answers, items } = await windowPages(query, perPage, io, (page) => postsPage(postsUrl(query.q, page, perPage, query.sort), io));
  const assets = items.map((post) => toAsset(post));
  return { ...keepAsked(assets, query, answers[0]?.total), searchUrl: searchUrl(query) };
}

async function getAsset(slug: string, io: SourceIo): Promise<AssetDetails | null> {
  const url = `${API}?slug=${encodeURIComponent(slug)}&_embed=wp:term&_fields=${FIELDS},content`;
  const body = await unlessGone(io.json(url));
  if (body !== undefined && !Array.isArray(body)) throw shapeError(ID, url, "post JSON is not an array");
  const raw = body?.find((p) => (p as { slug?: unknown } | null)?.slug === slug);
  if (!raw) return null;
  const post = Post.safeParse(raw);
  if (!post.success || !post.data.content) throw shapeError(ID, url, "post has no content.rendered");
  const files = filesOf(post.data);
  return { ...toAsset(post.data, [...new Set(files.flatMap((f) => f.resolution ?? []))]), files };
}

async function census(io: SourceIo): Promise<CensusBody> {
  const { items: posts, total: header } = await postsPage(postsUrl("", 1, CENSUS_PER_PAGE), io);
  const now = io.now();
  // Every post was seen when the page holds the whole count (or, without X-WP-Total, is not full).
  const whole = header !== undefined ? posts.length >= header : posts.length < CENSUS_PER_PAGE;
  const total = header ?? posts.length;
  const published = (p: Post) => Date.parse(p.date ?? "");
  const newest = latest(posts, published, now);
  return compact({
    total,
    atLeast: header === undefined && !whole ? true : undefined,
    // Free and category counts need every post; they are given only when one page held them all.
    free: whole ? total - posts.filter(isExclusive).length : undefined,
    categories: whole ? countBy(posts, (p) => namesOf(p, "category")) : undefined,
    addedLast30Days: addedLast30Days(now, posts.map(published)),
    highlights: newest && [{ label: "Newest texture", title: htmlText(newest.title.rendered), url: newest.link }],
    method:
      header !== undefined
        ? "3DTextures WordPress REST API: X-WP-Total of the posts listing; last 30 days from the newest 100 posts"
        : "3DTextures WordPress REST API: posts of the newest page counted (no X-WP-Total header was sent)",
  });
}

/** The site's own WordPress search. */
const searchUrl = ({ q }: SourceQuery) => (q.trim() ? `${SITE}/?s=${encodeURIComponent(q.trim()).replace(/%20/g, "+")}` : `${SITE}/`);

export const threeDTextures = defineSource(
  {
    ...cc0Site(ID, "3DTextures", SITE),
    description: DESCRIPTION,
    assetTypes: ["texture"],
    access: "api",
    supportsDownload: false,
    // Posts carry the CC0 licence, the author, categories and the post date; resolutions only on the post page.
    filtering: { upstream: ["newest"], listed: [...LICENSE_TERMS, "author", "category", "newest"] },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
