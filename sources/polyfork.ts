/**
 * Polyfork (https://polyfork.dev): low-poly, vertex-coloured 3D props in themed kits, with a JSON API.
 * Free assets are plain GLB downloads from its CDN (no account, no key); the rest come with the
 * Pro plan. Live: searched through the API.
 *
 * Upstream shapes used here:
 * - `/api/assets?q=<q>&per_page=<n>[&free=1][&page=<p>]` → `{ total, page, per_page, assets: [...] }`.
 *   Every item has `id` (slug with a hash suffix), `title`, `class`, `triangles`, `kit`, `free`,
 *   `plan`, `page`, `thumbnail`, `has_rig`; free items add `download: { glb, mjs, auth: "none" }`.
 *   The `free=1` filter is the one the API echoes as `filters.free` in its answers.
 * - `/api/assets/<id>` → the same record plus `export_formats` (fbx/usdz/obj conversions: they need
 *   an account key even for free assets, and answer 403 for assets not owned), `published_at`,
 *   `renders`, and `license` (one site-wide text with its URL). A `preview_glb` exists for every
 *   asset, but for paid ones it is a reduced stand-in ("not the full asset"), so it is not listed.
 */
import { z } from "zod";
import type { Source, SourceContext, SourceQuery, SourceSearchResult } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, License, SourceCensus } from "../core/schemas/index.ts";
import { normalizeLicense } from "../core/license.ts";
import { leadingPages, pageWindow } from "./kit/page-window.ts";
import { isHttpUrl } from "./kit/url.ts";
import { unlessGone } from "./kit/fetch.ts";

const ID = "polyfork";
const NAME = "Polyfork";
const SITE = "https://polyfork.dev";
const API = `${SITE}/api/assets`;
const LICENSE_URL = `${SITE}/licensing`;
/** The API's licence text (the same for every asset); search items do not carry it, details do. */
const LICENSE_TEXT = "Use in commercial projects, no attribution. No redistribution of the files themselves.";
const SITE_LICENSE: License = normalizeLicense(LICENSE_TEXT, LICENSE_URL)!;

const Download = z.looseObject({ glb: z.string().optional(), mjs: z.string().optional(), auth: z.string().optional() });

const Item = z.looseObject({
  id: z.string().min(1),
  title: z.string().min(1),
  class: z.string().optional(),
  triangles: z.number().optional(),
  kit: z.string().optional(),
  free: z.boolean().optional(),
  plan: z.string().optional(),
  page: z.string().optional(),
  thumbnail: z.string().optional(),
  has_rig: z.boolean().optional(),
  download: Download.optional(),
  export_formats: z.record(z.string(), z.looseObject({ url: z.string(), available: z.boolean().optional() })).optional(),
  published_at: z.string().optional(),
  license: z.string().optional(),
});
type Item = z.infer<typeof Item>;

const SearchBody = z.looseObject({ total: z.number().optional(), assets: z.array(z.unknown()) });

const assetPage = (id: string) => `${SITE}/asset/${encodeURIComponent(id)}`;

/** A free asset's GLB is a plain GET when the API says `auth: "none"`. */
const directGlb = (item: Item) => (item.free === true && item.download?.auth === "none" && isHttpUrl(item.download.glb) ? item.download.glb : undefined);

/** `2026-10-06 02:45:53` → `2026-10-06T02:45:53` (the API gives no zone). */
const isoish = (text: string | undefined) => (text && /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/.test(text) ? text.replace(" ", "T") : undefined);

function toAsset(item: Item): Asset {
  const url = isHttpUrl(item.page) ? item.page : assetPage(item.id);
  const formats = ["glb", ...Object.keys(item.export_formats ?? {})];
  return {
    id: `${ID}:${item.id}`,
    provider: ID,
    nativeId: item.id,
    title: item.title,
    type: "model",
    tags: item.kit ? [item.kit] : [],
    categories: item.class ? [item.class] : [],
    url,
    ...(isHttpUrl(item.thumbnail) ? { thumbnailUrl: item.thumbnail } : {}),
    license: licenseOf(item),
    price: { free: item.free === true },
    formats: [...new Set(formats)],
    ...(typeof item.triangles === "number" ? { polyCount: Math.round(item.triangles) } : {}),
    ...(typeof item.has_rig === "boolean" ? { rigged: item.has_rig } : {}),
    downloadable: Boolean(directGlb(item)),
    ...(isoish(item.published_at) ? { createdAt: isoish(item.published_at)! } : {}),
  };
}

/** The detail's own licence text ("… https://polyfork.dev/licensing"), else the site-wide one. */
function licenseOf(item: Item): License {
  if (!item.license) return { ...SITE_LICENSE };
  const url = /https?:\/\/\S+/.exec(item.license)?.[0];
  const name = item.license.replace(/https?:\/\/\S+/, "").trim();
  return normalizeLicense(name || LICENSE_TEXT, url ?? LICENSE_URL) ?? { ...SITE_LICENSE };
}

function filesOf(item: Item): AssetFile[] {
  const files: AssetFile[] = [];
  const glb = directGlb(item);
  if (glb) files.push({ url: glb, filename: `${item.id}.glb`, format: "glb", group: "glb" });
  const mjs = item.download?.mjs;
  if (glb && isHttpUrl(mjs)) files.push({ url: mjs, filename: `${item.id}.mjs`, format: "mjs", group: "program" });
  for (const [format, entry] of Object.entries(item.export_formats ?? {})) {
    if (!isHttpUrl(entry.url)) continue;
    // Conversions need the account's key (Authorization: Bearer), and a plan for paid assets.
    files.push({ url: entry.url, filename: `${item.id}.${format}`, format, group: format, requiresAuth: true });
  }
  return files;
}

export function searchApiUrl(q: string, perPage: number, page: number, free: boolean): string {
  return `${API}?q=${encodeURIComponent(q.trim())}&per_page=${perPage}${free ? "&free=1" : ""}${page > 1 ? `&page=${page}` : ""}`;
}

async function fetchPage(url: string, ctx: SourceContext): Promise<{ total?: number; items: Item[] }> {
  const body = SearchBody.safeParse(await ctx.http.getJson(url, { signal: ctx.signal }));
  if (!body.success) throw new Error(`polyfork: search JSON of ${url} has no assets array`);
  const items = body.data.assets.map((raw) => {
    const item = Item.safeParse(raw);
    if (!item.success) throw new Error(`polyfork: an asset of ${url} has no id or title`);
    return item.data;
  });
  return { ...(typeof body.data.total === "number" ? { total: body.data.total } : {}), items };
}

async function search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult> {
  if (query.types.length && !query.types.includes("model")) return { assets: [], total: 0 };
  // Downloadable assets are exactly the free ones here.
  const free = query.free || query.downloadable;
  const perPage = Math.min(100, Math.max(1, query.limit));
  const { pages, skip } = pageWindow(query.offset, perPage, perPage);
  // A later page that fails ends the window there: the first page's results still stand.
  const results = await leadingPages(pages.map((p) => fetchPage(searchApiUrl(query.q, perPage, p, free), ctx)), ctx.signal);
  const items = results.flatMap((r) => r.items).slice(skip, skip + query.limit);
  const total = results[0]?.total;
  return { assets: items.map(toAsset), ...(total !== undefined ? { total } : {}), searchUrl: searchUrl(query) };
}

async function getAsset(nativeId: string, ctx: SourceContext): Promise<AssetDetails | null> {
  if (!/^[a-z0-9][a-z0-9_-]*$/i.test(nativeId)) return null;
  const url = `${API}/${encodeURIComponent(nativeId)}`;
  const raw = await unlessGone(ctx.http.getJson(url, { signal: ctx.signal }));
  if (raw === undefined) return null;
  const item = Item.safeParse(raw);
  if (!item.success) throw new Error(`polyfork: asset JSON of ${url} has no id or title`);
  return { ...toAsset(item.data), files: filesOf(item.data) };
}

/** Two small searches: the empty query counts every asset, `free=1` the free ones. */
async function census(ctx: SourceContext): Promise<SourceCensus> {
  const [all, free] = await Promise.all([fetchPage(`${API}?per_page=1`, ctx), fetchPage(`${API}?per_page=1&free=1`, ctx)]);
  if (all.total === undefined) throw new Error(`polyfork: ${API}?per_page=1 answered no total`);
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total: all.total,
    ...(free.total !== undefined ? { free: free.total } : {}),
    byType: { model: all.total },
    unit: "assets",
    method: "polyfork.dev API: `total` of an empty /api/assets search, and of the same search with free=1",
    countedAt: ctx.now().toISOString(),
  };
}

/** The site's home page with the query (the route for people is not in any recording: unverified). */
function searchUrl(query: SourceQuery): string {
  const q = query.q.trim();
  return `${SITE}/${q ? `?q=${encodeURIComponent(q)}` : ""}`;
}

export const polyfork: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for low-poly, vertex-coloured game props in matching kits; free ones are direct GLB downloads.",
  assetTypes: ["model"],
  access: "api",
  pricing: "freemium",
  license: { ...SITE_LICENSE },
  supportsDownload: true,
  mode: "live",
  unit: "assets",
  searchUrl,
  search,
  getAsset,
  census,
};
