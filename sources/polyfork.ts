/**
 * Polyfork (https://polyfork.dev): low-poly, vertex-coloured 3D props in themed kits; free ones are plain GLB downloads
 * (no account, no key), the rest come with the Pro plan. Live, through its JSON API: `/api/assets?q=…` and `/api/assets/<id>`.
 */
import { z } from "zod";
import { normalizeLicense } from "../core/model/license.ts";
import { type AssetDetails, type AssetFile, assetMaker, compact, type License, round } from "./kit/asset.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { type SourceIo, shapeError, unlessGone } from "./kit/fetch.ts";
import { mapOne, type SearchFilters, type Sort } from "./kit/filters.ts";
import { windowPages } from "./kit/page-window.ts";
import { isHttpUrl, withWords } from "./kit/url.ts";

const ID = "polyfork";
const SITE = "https://polyfork.dev";
const API = `${SITE}/api/assets`;
const asset = assetMaker(ID);

const [text, flag] = [z.string().optional(), z.boolean().optional()];
const Download = z.looseObject({ glb: text, mjs: text, auth: text });
const Conversions = z.record(z.string(), z.looseObject({ url: z.string() }));
const Item = z
  .looseObject({ id: z.string().min(1), title: z.string().min(1), class: text, kit: text, page: text, thumbnail: text, published_at: text, license: text })
  .extend({ triangles: z.number().optional(), free: flag, has_rig: flag, download: Download.optional(), export_formats: Conversions.optional() });
type Item = z.infer<typeof Item>;
const SearchBody = z.looseObject({ total: z.number().optional(), assets: z.array(Item) });

/** A licence text as the API writes it ("… https://polyfork.dev/licensing"); without one (search items), the site-wide text. */
const LICENSE_TEXT = "Use in commercial projects, no attribution. No redistribution of the files themselves.";
const LICENSE_URL = /https?:\/\/\S+/;
const licenseOf = (text = LICENSE_TEXT): License =>
  normalizeLicense(text.replace(LICENSE_URL, "").trim() || LICENSE_TEXT, LICENSE_URL.exec(text)?.[0] ?? `${SITE}/licensing`) ?? { name: LICENSE_TEXT };

const directGlb = (item: Item) => (item.free === true && item.download?.auth === "none" && isHttpUrl(item.download.glb) ? item.download.glb : undefined);
/** `2026-10-06 02:45:53` → `2026-10-06T02:45:53` (the API gives no zone). */
const isoish = (text: string | undefined) => (text && /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/.test(text) ? text.replace(" ", "T") : undefined);

const toAsset = (item: Item) =>
  asset(item.id, {
    title: item.title,
    type: "model",
    tags: item.kit ? [item.kit] : [],
    categories: item.class ? [item.class] : [],
    url: isHttpUrl(item.page) ? item.page : `${SITE}/asset/${encodeURIComponent(item.id)}`,
    thumbnailUrl: item.thumbnail,
    license: licenseOf(item.license),
    price: { free: item.free === true },
    formats: [...new Set(["glb", ...Object.keys(item.export_formats ?? {})])],
    polyCount: round(item.triangles),
    rigged: item.has_rig,
    downloadable: Boolean(directGlb(item)),
    createdAt: isoish(item.published_at),
  });

function filesOf(item: Item): AssetFile[] {
  const glb = directGlb(item);
  const files: AssetFile[] = glb ? [{ url: glb, filename: `${item.id}.glb`, format: "glb", group: "glb" }] : [];
  if (glb && isHttpUrl(item.download?.mjs)) files.push({ url: item.download.mjs, filename: `${item.id}.mjs`, format: "mjs", group: "program" });
  // Conversions need the account key even for free assets (a plan for paid ones); a paid asset's `preview_glb` is a reduced stand-in.
  const conversions = Object.entries(item.export_formats ?? {}).filter(([, e]) => isHttpUrl(e.url));
  return [...files, ...conversions.map(([format, { url }]) => ({ url, filename: `${item.id}.${format}`, format, group: format, requiresAuth: true }))];
}

/** The search API URL; `narrow` holds the filter parameters (after free, before page). */
export function searchApiUrl(q: string, perPage: number, page: number, free: boolean, narrow: Record<string, string | undefined> = {}): string {
  const extra = Object.entries(compact(narrow)).map(([key, value]) => `&${key}=${encodeURIComponent(value)}`);
  return `${API}?q=${encodeURIComponent(q.trim())}&per_page=${perPage}${free ? "&free=1" : ""}${extra.join("")}${page > 1 ? `&page=${page}` : ""}`;
}

/** The API's asset classes (an item's `class`), as paging the whole catalogue shows them. */
const CLASSES = new Set(["prop", "building", "vehicle", "character", "terrain", "ultra"]);

/**
 * The API's own narrowing, as its clients send it: `class` (one asset class, the item's `class`) and `sort=latest` (newest
 * first; the answer echoes its `filters.sort`). One class only: several wanted ones (any of) have no single form.
 */
function narrowing(filters: SearchFilters, sort: Sort) {
  return { class: mapOne(filters.category, (c) => (CLASSES.has(c) ? c : undefined)), sort: sort === "newest" ? "latest" : undefined };
}

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  if (query.types.length && !query.types.includes("model")) return { assets: [], total: 0 };
  const free = query.free || query.downloadable; // downloadable assets are exactly the free ones here
  const perPage = Math.min(100, Math.max(1, query.limit));
  const narrow = narrowing(query.filters, query.sort);
  const page = (p: number) => io.get(searchApiUrl(query.q, perPage, p, free, narrow), SearchBody).then((body) => ({ items: body.assets, total: body.total }));
  const { answers, items } = await windowPages(query, perPage, io, page);
  return { assets: items.map(toAsset), ...compact({ total: answers[0]?.total }), searchUrl: searchUrl(query) };
}

async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  const item = /^[a-z0-9][a-z0-9_-]*$/i.test(nativeId) ? await unlessGone(io.get(`${API}/${encodeURIComponent(nativeId)}`, Item)) : undefined;
  return item ? { ...toAsset(item), files: filesOf(item) } : null;
}

async function census(io: SourceIo): Promise<CensusBody> {
  const url = `${API}?per_page=1`;
  const [all, free] = await Promise.all([io.get(url, SearchBody), io.get(`${url}&free=1`, SearchBody)]);
  if (all.total === undefined) throw shapeError(ID, url, `${url} answered no total`);
  const method = "polyfork.dev API: `total` of an empty /api/assets search, and of the same search with free=1";
  return compact({ total: all.total, free: free.total, method });
}

/** The site's home page with the query (the route for people is not in any recording: unverified). */
const searchUrl = ({ q }: SourceQuery) => withWords(`${SITE}/`, "q", q);

export const polyfork = defineSource(
  {
    id: ID,
    name: "Polyfork",
    homepage: SITE,
    description: "Best for low-poly, vertex-coloured game props in matching kits; free ones are direct GLB downloads.",
    assetTypes: ["model"],
    access: "api",
    pricing: "freemium",
    license: licenseOf(),
    supportsDownload: true,
    unit: "assets",
    // Search items carry no date (only details have published_at), no licence id, no animation flag and no download
    // count. Their `formats` is "glb" alone: the conversions every asset detail lists (fbx, usdz, obj) are not in
    // search items, so a format filter on them would drop assets that have the format.
    filtering: { upstream: ["category", "newest"], listed: ["category", "maxPolys", "rigged"] },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
