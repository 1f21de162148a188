/**
 * 3DAssets.dev (https://3dassets.dev): a catalogue of small, web-ready GLB models (props, nature,
 * buildings, vehicles, characters …), free to download, with a public JSON API that needs no key.
 * Live: searched through the API (tens of thousands of assets: too many to crawl daily).
 *
 * Upstream shapes used here (see test/fixtures/3dassets/manifest.json for the recordings):
 * - `/api/v1/assets?q=<q>&page=<p>&limit=<n>` → `{ data: [...], page, totalPages, total, limit }`.
 *   Every item has `id`, `slug` (the id we use), `title`, `summary`, `url` (its page), `cdnUrl` (the
 *   GLB on cdn.3dassets.dev: a plain GET), `downloadUrl` (a route of the site), `thumbnailUrl`,
 *   `category {slug,title}`, `tags [{slug,title}]`, `license {slug,name,url,attributionRequired}`,
 *   `contributor {username,name,url}`, `stats` (`fileSize` in bytes, `triangles`, `animations` …),
 *   `aiGenerated`, `downloads`, `publishedAt`. The same listing takes `category=<slug>`.
 * - `/api/v1/assets/<slug>` → `{ data: <item> }` with a longer `description` too.
 * - `/api/v1/categories` → `{ data: [{ slug, title, description, icon }] }`.
 * The API has no price: every recorded asset is CC0 with a `cdnUrl`.
 */
import { z } from "zod";
import type { Source, SourceContext, SourceQuery, SourceSearchResult } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, SourceCensus } from "../core/schemas/index.ts";
import { normalizeLicense } from "../core/license.ts";
import { fetchJson, shapeError, unlessGone } from "./kit/fetch.ts";
import { collectWindow, followUpPage, pageWindow } from "./kit/page-window.ts";
import { isHttpUrl } from "./kit/url.ts";

const ID = "3dassets";
const NAME = "3DAssets.dev";
const SITE = "https://3dassets.dev";
const API = `${SITE}/api/v1`;
/** The largest `limit` the listing is asked for. */
const MAX_PAGE = 100;
const SLUG = /^[a-z0-9][a-z0-9-]*$/i;

const Named = z.looseObject({ slug: z.string().optional(), title: z.string() });

const Item = z.looseObject({
  slug: z.string().regex(SLUG),
  title: z.string().min(1),
  summary: z.string().optional(),
  description: z.string().optional(),
  url: z.string().optional(),
  cdnUrl: z.string().optional(),
  thumbnailUrl: z.string().optional(),
  category: Named.nullish(),
  tags: z.array(Named).optional(),
  license: z.looseObject({ name: z.string().optional(), url: z.string().optional() }).nullish(),
  contributor: z.looseObject({ username: z.string().optional(), name: z.string().optional() }).nullish(),
  stats: z
    .looseObject({
      fileSize: z.number().optional(),
      triangles: z.number().optional(),
      animations: z.array(z.unknown()).optional(),
    })
    .nullish(),
  aiGenerated: z.boolean().optional(),
  publishedAt: z.string().optional(),
});
type Item = z.infer<typeof Item>;

const Listing = z.looseObject({ data: z.array(z.unknown()), total: z.number().optional() });
const Detail = z.looseObject({ data: z.unknown() });
const Categories = z.looseObject({ data: z.array(z.looseObject({ slug: z.string().min(1), title: z.string().min(1) })) });

/** The GLB on the CDN, when the item has one. */
const glbOf = (item: Item) => (isHttpUrl(item.cdnUrl) ? item.cdnUrl : undefined);

function toAsset(item: Item, description = item.summary): Asset {
  const author = item.contributor?.name || item.contributor?.username;
  const license = item.license?.name || item.license?.url ? normalizeLicense(item.license?.name, item.license?.url) : undefined;
  const triangles = item.stats?.triangles;
  const animations = item.stats?.animations;
  const glb = glbOf(item);
  return {
    id: `${ID}:${item.slug}`,
    provider: ID,
    nativeId: item.slug,
    title: item.title,
    ...(description ? { description } : {}),
    type: "model",
    tags: [...(item.tags ?? []).map((t) => t.title), ...(item.aiGenerated ? ["ai-generated"] : [])],
    categories: item.category ? [item.category.title] : [],
    url: isHttpUrl(item.url) ? item.url : `${SITE}/assets/${encodeURIComponent(item.slug)}`,
    ...(isHttpUrl(item.thumbnailUrl) ? { thumbnailUrl: item.thumbnailUrl } : {}),
    ...(author ? { author } : {}),
    ...(license ? { license } : {}),
    // The API has no prices: the catalogue is free to download.
    price: { free: true },
    ...(glb ? { formats: ["glb"] } : {}),
    ...(typeof triangles === "number" && triangles > 0 ? { polyCount: Math.round(triangles) } : {}),
    ...(animations ? { animated: animations.length > 0 } : {}),
    downloadable: Boolean(glb),
    ...(item.publishedAt ? { createdAt: item.publishedAt } : {}),
  };
}

function parseItem(raw: unknown, url: string): Item {
  const item = Item.safeParse(raw);
  if (!item.success) throw shapeError(ID, url, `an asset of ${url} has no slug or title`);
  return item.data;
}

/** The listing URL: `q` only when there is a query (the census asks the listing without one). */
export function listingUrl(params: { q?: string; category?: string; page?: number; limit: number }): string {
  const parts: string[] = [];
  const q = params.q?.trim();
  if (q) parts.push(`q=${encodeURIComponent(q)}`);
  if (params.category) parts.push(`category=${encodeURIComponent(params.category)}`);
  if (params.page !== undefined) parts.push(`page=${params.page}`);
  parts.push(`limit=${params.limit}`);
  return `${API}/assets?${parts.join("&")}`;
}

async function fetchListing(url: string, ctx: SourceContext): Promise<{ items: Item[]; total?: number }> {
  const body = Listing.safeParse(await fetchJson(ID, url, ctx));
  if (!body.success) throw shapeError(ID, url, `listing JSON of ${url} has no data array`);
  const items = body.data.data.map((raw) => parseItem(raw, url));
  return { items, ...(typeof body.data.total === "number" ? { total: body.data.total } : {}) };
}

async function search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult> {
  if (query.types.length && !query.types.includes("model")) return { assets: [], total: 0 };
  // Every asset is free; `downloadable` keeps only those with a GLB on the CDN (all that were seen).
  const pageSize = Math.min(MAX_PAGE, Math.max(1, query.limit));
  const window = pageWindow(query.offset, query.limit, pageSize);
  const { items, total } = await collectWindow(
    window,
    query.limit,
    pageSize,
    (page) => fetchListing(listingUrl({ q: query.q, page, limit: pageSize }), ctx),
    ctx.signal,
  );
  const kept = query.downloadable ? items.filter((item) => glbOf(item)) : items;
  return {
    assets: kept.map((item) => toAsset(item)),
    ...(total !== undefined && !query.downloadable ? { total } : {}),
    searchUrl: searchUrl(query),
  };
}

function filesOf(item: Item, asset: Asset): AssetFile[] {
  const glb = glbOf(item);
  const size = item.stats?.fileSize;
  if (glb) {
    return [
      {
        url: glb,
        filename: `${item.slug}.glb`,
        format: "glb",
        ...(typeof size === "number" && size > 0 ? { sizeBytes: Math.round(size) } : {}),
        group: "gltf",
      },
    ];
  }
  // Without a CDN file, only the asset's page is left: not a file this server can fetch.
  return [{ url: asset.url, filename: item.slug, format: "page", group: "gltf", requiresAuth: true }];
}

async function getAsset(nativeId: string, ctx: SourceContext): Promise<AssetDetails | null> {
  if (!SLUG.test(nativeId)) return null;
  const url = `${API}/assets/${encodeURIComponent(nativeId)}`;
  const raw = await unlessGone(fetchJson(ID, url, ctx));
  if (raw === undefined) return null;
  const body = Detail.safeParse(raw);
  if (!body.success || !body.data.data) throw shapeError(ID, url, `asset JSON of ${url} has no data object`);
  const item = parseItem(body.data.data, url);
  const asset = toAsset(item, item.description || item.summary);
  return { ...asset, files: filesOf(item, asset) };
}

/**
 * The total of a one-item listing, the category list, and one one-item listing per category
 * (13 small requests in the recordings). A category whose count does not answer is left out.
 */
async function census(ctx: SourceContext): Promise<SourceCensus> {
  const totalUrl = listingUrl({ limit: 1 });
  const categoriesUrl = `${API}/categories`;
  const [all, categoriesBody] = await Promise.all([fetchListing(totalUrl, ctx), fetchJson(ID, categoriesUrl, ctx)]);
  if (all.total === undefined) throw shapeError(ID, totalUrl, `${totalUrl} answered no total`);
  const list = Categories.safeParse(categoriesBody);
  if (!list.success) throw shapeError(ID, categoriesUrl, `${categoriesUrl} has no data array of categories`);

  const counts = await Promise.all(
    list.data.data.map(async (c) => {
      const res = await followUpPage(() => fetchListing(listingUrl({ category: c.slug, limit: 1 }), ctx), ctx.signal);
      return [c.title, res?.total] as const;
    }),
  );
  const categories: Record<string, number> = {};
  for (const [title, count] of counts) if (typeof count === "number" && count > 0) categories[title] = count;

  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total: all.total,
    free: all.total,
    byType: { model: all.total },
    ...(Object.keys(categories).length ? { categories } : {}),
    unit: "assets",
    method:
      "3DAssets.dev API: `total` of /api/v1/assets?limit=1 (every asset is a free model), and per category the `total` of /api/v1/assets?category=<slug>&limit=1 for each entry of /api/v1/categories (categories whose count did not answer are left out)",
    countedAt: ctx.now().toISOString(),
  };
}

/** The site's asset listing with the query (the route for people is not in any recording: unverified). */
function searchUrl(query: SourceQuery): string {
  const q = query.q.trim();
  return `${SITE}/assets${q ? `?q=${encodeURIComponent(q)}` : ""}`;
}

export const threeDAssets: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for small web-ready GLB models (props, nature, buildings, vehicles) under CC0, each a direct download.",
  assetTypes: ["model"],
  access: "api",
  pricing: "free",
  supportsDownload: true,
  mode: "live",
  unit: "assets",
  searchUrl,
  search,
  getAsset,
  census,
};
