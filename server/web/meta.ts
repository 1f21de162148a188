/**
 * What a page says of itself before its script runs: the title, description and preview image a
 * shared link shows in chat apps and search engines. An asset's come from the index when it holds
 * it (no upstream call), else from the source's details; a source that fails leaves the page
 * generic rather than failing it. The sources' and the stats' pages say what they hold, with the
 * census's numbers where it has them.
 */
import type { Asset, CountWithBound } from "../../core/schemas/index.ts";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";
import { fetchDetails, parseAssetId } from "../service/assets.ts";
import type { PageMeta } from "./shell.ts";

const SITE = "asset-search";
const SITE_DESCRIPTION =
  "Search 3D models, PBR materials, textures, HDRIs, sprites, UI, audio and fonts from many free and paid asset sites at once, with the licence of every result.";
const MAX_DESCRIPTION = 200;

/** `/` and a search on it. */
export function searchMeta(base: string, query: URLSearchParams): PageMeta {
  const q = query.get("q")?.trim();
  return {
    title: q ? `“${q}” assets · ${SITE}` : `${SITE}: every free asset site at once`,
    description: SITE_DESCRIPTION,
    url: q ? `${base}/?${new URLSearchParams({ q })}` : `${base}/`,
  };
}

const shorten = (text: string) => (text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1).trimEnd()}…` : text);

/** An asset's page (`/assets/<id>`, and `/?asset=<id>`, which links to it as canonical); undefined when the asset does not exist. */
export async function assetMeta(base: string, rawId: string, deps: AppDeps, signal: AbortSignal): Promise<PageMeta | undefined> {
  const ref = parseAssetId(rawId, deps);
  let asset: Asset | undefined = deps.published.index.get(ref.id);
  if (!asset) {
    try {
      asset = await fetchDetails(ref, deps, { signal, baseUrl: base });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      asset = undefined;
    }
  }
  const url = `${base}/assets/${encodeURIComponent(ref.id)}`;
  if (!asset) return { title: `${ref.nativeId} on ${ref.source.name} · ${SITE}`, description: SITE_DESCRIPTION, url };
  const licence = asset.license ? (asset.license.spdx ?? asset.license.name) : "licence not stated";
  const price = asset.price ? (asset.price.free ? ", free" : ", paid") : "";
  const facts = `${asset.type} by ${asset.author ?? "an unnamed author"} on ${ref.source.name}, ${licence}${price}.`;
  return {
    title: `${asset.title} · ${ref.source.name} · ${SITE}`,
    description: shorten(asset.description ? `${asset.description} ${facts}` : facts),
    url,
    ...(asset.thumbnailUrl ? { image: `${base}/v1/assets/${encodeURIComponent(ref.id)}/thumbnail?w=640` } : {}),
  };
}

/** Numbers in descriptions are written one way, whoever asks: "316,124+". */
const count = (c: CountWithBound) => `${c.count.toLocaleString("en-US")}${c.atLeast ? "+" : ""}`;

/** `/sources`: the registry, with the census's total when one is published. */
export function sourcesMeta(base: string, deps: AppDeps): PageMeta {
  const catalog = deps.published.catalog;
  const listings = catalog ? `, ${count(catalog.totals.listings)} listings counted daily` : "";
  return {
    title: `Sources · ${SITE}`,
    description: `The ${deps.sources.length} asset sites ${SITE} searches${listings}: each one's types, pricing, licence, access, direct downloads and health.`,
    url: `${base}/sources`,
  };
}

/** `/sources/<id>`; undefined when the registry holds no such source. */
export function sourceMeta(base: string, id: string, deps: AppDeps): PageMeta | undefined {
  const source = deps.sources.find((s) => s.id === id);
  if (!source) return undefined;
  const census = deps.published.catalog?.sources.find((c) => c.id === id);
  const free = census?.free !== undefined ? ` (${count({ count: census.free })} free)` : "";
  const held = census ? `${count({ count: census.total, atLeast: census.atLeast })} ${census.unit === "packs" ? "packs" : "listings"}${free} of ` : "";
  return {
    title: `${source.name}: census and history · ${SITE}`,
    description: shorten(
      `${source.name}: ${held}${source.assetTypes.join(", ")}. Its daily census and history, licence, access and example searches on ${SITE}.`,
    ),
    url: `${base}/sources/${encodeURIComponent(id)}`,
  };
}

/** `/stats`. */
export function statsMeta(base: string): PageMeta {
  return {
    title: `Usage and health · ${SITE}`,
    description: `How ${SITE} is used (searches by surface, client and type filter, MCP tools, downloads), how each live source answers, and the daily census over time.`,
    url: `${base}/stats`,
  };
}
