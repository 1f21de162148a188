/**
 * 3DAssets.dev (https://3dassets.dev): small web-ready GLB models, free to download, searched live through a keyless JSON API
 * (too many assets to crawl daily). An item's `cdnUrl` is its GLB on cdn.3dassets.dev, a plain GET; every recorded one has it.
 */
import { z } from "zod";
import { normalizeLicense } from "../core/model/license.ts";
import { type Asset, type AssetDetails, type AssetFile, assetMaker, compact } from "./kit/asset.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { expectShape, type SourceIo, shapeError, unlessGone } from "./kit/fetch.ts";
import { LICENSE_TERMS } from "./kit/filters.ts";
import { collectWindow, followUpPage } from "./kit/page-window.ts";
import { isHttpUrl, withWords } from "./kit/url.ts";

const ID = "3dassets";
const SITE = "https://3dassets.dev";
const API = `${SITE}/api/v1`;
const asset = assetMaker(ID);
const SLUG = /^[a-z0-9][a-z0-9-]*$/i;

const [str, num] = [z.string().optional(), z.number().optional()];
const Named = z.looseObject({ slug: str, title: z.string() });
const Item = z
  .looseObject({ slug: z.string().regex(SLUG), title: z.string().min(1), summary: str, description: str, url: str, cdnUrl: str, thumbnailUrl: str })
  .extend({ publishedAt: str, downloads: z.number().int().min(0).optional(), aiGenerated: z.boolean().optional(), category: Named.nullish() })
  .extend({
    tags: z.array(Named).optional(),
    license: z.looseObject({ name: str, url: str }).nullish(),
    contributor: z.looseObject({ username: str, name: str }).nullish(),
  })
  .extend({ stats: z.looseObject({ fileSize: num, triangles: num, animations: z.array(z.unknown()).optional() }).nullish() });
type Item = z.infer<typeof Item>;
const Listing = z.looseObject({ data: z.array(z.unknown()), total: z.number().optional() });
const glbOf = (item: Item) => (isHttpUrl(item.cdnUrl) ? item.cdnUrl : undefined);

function toAsset(item: Item, description = item.summary) {
  const glb = glbOf(item);
  return asset(item.slug, {
    title: item.title,
    description,
    type: "model",
    tags: [...(item.tags ?? []).map((t) => t.title), ...(item.aiGenerated ? ["ai-generated"] : [])],
    categories: item.category && [item.category.title],
    url: isHttpUrl(item.url) ? item.url : `${SITE}/assets/${encodeURIComponent(item.slug)}`,
    thumbnailUrl: item.thumbnailUrl,
    author: item.contributor?.name || item.contributor?.username,
    license: normalizeLicense(item.license?.name, item.license?.url),
    // The API has no prices: the catalogue is free to download.
    price: { free: true },
    formats: glb && ["glb"],
    polyCount: item.stats?.triangles && item.stats.triangles > 0 ? Math.round(item.stats.triangles) : undefined,
    animated: item.stats?.animations && item.stats.animations.length > 0,
    downloadable: Boolean(glb),
    createdAt: item.publishedAt,
    downloads: item.downloads,
  });
}

const parseItem = (raw: unknown, url: string): Item => expectShape(ID, url, Item, raw, `an asset of ${url} has no slug or title`);

/** The listing URL: `q` only when there is a query (the census asks the listing without one). */
export function listingUrl({ q, category, page, limit }: { q?: string; category?: string; page?: number; limit: number }): string {
  const query = q?.trim() && `q=${encodeURIComponent(q.trim())}`;
  const parts = [query, category && `category=${encodeURIComponent(category)}`, page !== undefined && `page=${page}`, `limit=${limit}`];
  return `${API}/assets?${parts.filter(Boolean).join("&")}`;
}

async function fetchListing(url: string, io: SourceIo): Promise<{ items: Item[]; total?: number }> {
  const body = expectShape(ID, url, Listing, await io.json(url), `listing JSON of ${url} has no data array`);
  return { items: body.data.map((raw) => parseItem(raw, url)), total: body.total };
}

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  if (query.types.length && !query.types.includes("model")) return { assets: [], total: 0 };
  const pageSize = Math.min(100, Math.max(1, query.limit)); // the listing's largest limit
  const { items, ...total } = await collectWindow(query, pageSize, io, (n) => fetchListing(listingUrl({ q: query.q, page: n, limit: pageSize }), io));
  // Every asset is free; `downloadable` keeps only those with a GLB on the CDN (all that were seen), which the total does not count.
  const assets = (query.downloadable ? items.filter(glbOf) : items).map((item) => toAsset(item));
  return { assets, ...(query.downloadable ? {} : total), searchUrl: searchUrl(query) };
}

function filesOf(item: Item, asset: Asset): AssetFile[] {
  const glb = glbOf(item);
  const size = item.stats?.fileSize;
  // Without a CDN file, only the asset's page is left: not a file this server can fetch.
  if (!glb) return [{ url: asset.url, filename: item.slug, format: "page", group: "gltf", requiresAuth: true }];
  return [compact({ url: glb, filename: `${item.slug}.glb`, format: "glb", sizeBytes: size && size > 0 ? Math.round(size) : undefined, group: "gltf" })];
}

async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  if (!SLUG.test(nativeId)) return null;
  const url = `${API}/assets/${encodeURIComponent(nativeId)}`;
  const body = await unlessGone(io.json(url));
  if (body === undefined) return null;
  const data = z.looseObject({ data: z.unknown() }).safeParse(body).data?.data;
  if (!data) throw shapeError(ID, url, `asset JSON of ${url} has no data object`);
  const item = parseItem(data, url);
  const asset = toAsset(item, item.description || item.summary);
  return { ...asset, files: filesOf(item, asset) };
}

async function census(io: SourceIo): Promise<CensusBody> {
  const totalUrl = listingUrl({ limit: 1 });
  const categoriesUrl = `${API}/categories`;
  const [{ total }, categoriesBody] = await Promise.all([fetchListing(totalUrl, io), io.json(categoriesUrl)]);
  if (total === undefined) throw shapeError(ID, totalUrl, `${totalUrl} answered no total`);
  const Categories = z.looseObject({ data: z.array(z.looseObject({ slug: z.string().min(1), title: z.string().min(1) })) });
  const list = expectShape(ID, categoriesUrl, Categories, categoriesBody, `${categoriesUrl} has no data array of categories`);
  const count = async (slug: string) => (await followUpPage(() => fetchListing(listingUrl({ category: slug, limit: 1 }), io), io.signal))?.total ?? 0;
  const counts = await Promise.all(list.data.map(async (c) => [c.title, await count(c.slug)] as const));
  const categories = Object.fromEntries(counts.filter(([, n]) => n > 0));
  const method =
    "3DAssets.dev API: `total` of /api/v1/assets?limit=1 (every asset is a free model), and per category the `total` of /api/v1/assets?category=<slug>&limit=1 for each entry of /api/v1/categories (categories whose count did not answer are left out)";
  return { total, free: total, categories: Object.keys(categories).length ? categories : undefined, method };
}

/** The site's asset listing with the query (the route for people is not in any recording: unverified). */
const searchUrl = (query: SourceQuery) => withWords(`${SITE}/assets`, "q", query.q);

export const threeDAssets = defineSource(
  {
    id: ID,
    name: "3DAssets.dev",
    homepage: SITE,
    description: "Best for small web-ready GLB models (props, nature, buildings, vehicles) under CC0, each a direct download.",
    assetTypes: ["model"],
    access: "api",
    pricing: "free",
    supportsDownload: true,
    unit: "assets",
    // The listing's `sort` and `contributor`/`category` (slugs, not names) have no documented values we can map: the search filters what comes back.
    filtering: { upstream: [], listed: [...LICENSE_TERMS, "author", "category", "format", "maxPolys", "animated", "newest", "popular"] },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
