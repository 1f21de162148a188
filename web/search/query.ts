/**
 * The search as the address holds it: the API's own parameters (so a shared link is the search),
 * `page` (how many pages are shown) and `asset` (an asset open over the results). Every change is
 * a new address written from the current one, so Back and Forward step through searches.
 */
import type { SearchParamName } from "../../core/model/search-params.ts";

/** Results per page: the API's default limit, and the per-source offset step (core/model/search-params.ts). */
export const PAGE_SIZE = 24;

/** The API's parameters the address carries, in the order the page writes them; the rest of the API's are the page's own business (paging, facets). */
const KEPT = [
  "q",
  "type",
  "license",
  "commercial",
  "attribution",
  "free",
  "downloadable",
  "providers",
  "exclude",
  "format",
  "resolution",
  "author",
  "category",
  "maxPolys",
  "animated",
  "rigged",
  "sort",
] as const satisfies readonly SearchParamName[];
export type KeptParam = (typeof KEPT)[number];

/** Parameters that only order or word the search: with none of the others, there is no search to run. */
const NOT_FILTERS: ReadonlySet<KeptParam> = new Set(["q", "sort"]);

export interface SearchAddress {
  /** The API query of this search (without paging), or undefined for the empty state: no words and no filter. */
  key: string | undefined;
  q: string;
  /** Pages the address asks to show, at least 1. */
  pages: number;
  asset: string | undefined;
}

export function readAddress(url: URL): SearchAddress {
  const api = new URLSearchParams();
  let filtered = false;
  for (const name of KEPT) {
    const value = url.searchParams.get(name)?.trim();
    if (!value) continue;
    api.set(name, value);
    if (!NOT_FILTERS.has(name)) filtered = true;
  }
  const q = api.get("q") ?? "";
  const pages = Math.max(1, Math.min(50, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1));
  return { key: q || filtered ? api.toString() : undefined, q, pages, asset: url.searchParams.get("asset") ?? undefined };
}

/** The API's largest `limit` (core/model/search-params.ts). */
const MAX_LIMIT = 100;

/**
 * What page `page` (0 for the first) asks of the API. The API's offset is per source, so asking
 * each source for its results past n × 24 would skip those the merged first pages left out; up to
 * the API's largest limit a later page is the one merged ranking asked longer (its first pages are
 * the ones shown), and only past that the per-source offset.
 */
export function pageWindow(page: number): { limit: number; offset: number } {
  const through = (page + 1) * PAGE_SIZE;
  return through <= MAX_LIMIT ? { limit: through, offset: 0 } : { limit: PAGE_SIZE, offset: page * PAGE_SIZE };
}

/** The API path of page `page`: the first carries the facets (they count the whole set), later ones do not. */
export function searchPath(key: string, page = 0): string {
  const params = new URLSearchParams(key);
  if (page === 0) params.set("facets", "true");
  else {
    const { limit, offset } = pageWindow(page);
    params.set("limit", String(limit));
    if (offset) params.set("offset", String(offset));
  }
  return `/v1/search?${params}`;
}

/** The values of a comma-list parameter. */
export const listParam = (url: URL, name: KeptParam): string[] =>
  (url.searchParams.get(name) ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * The address with these parameters changed (undefined removes one), as a new search: its paging
 * starts again and no asset is open. Parameters keep the order KEPT gives them.
 */
export function withParams(url: URL, changes: Partial<Record<KeptParam, string | undefined>>): string {
  const next = new URLSearchParams();
  for (const name of KEPT) {
    const value = name in changes ? changes[name] : url.searchParams.get(name);
    if (value?.trim()) next.set(name, value.trim());
  }
  const query = next.toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}

/** The address with `value` added to or taken from a comma-list parameter. */
export function toggleInList(url: URL, name: KeptParam, value: string): string {
  const values = listParam(url, name);
  const next = values.includes(value) ? values.filter((v) => v !== value) : [...values, value];
  return withParams(url, { [name]: next.join(",") || undefined });
}

/** The address with `asset` open over the same search (the asset's shareUrl has the same form). */
export function withAsset(url: URL, id: string | undefined): string {
  const next = new URLSearchParams(url.search);
  if (id === undefined) next.delete("asset");
  else next.set("asset", id);
  const query = next.toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}

/** The address showing `pages` pages of the same search. */
export function withPages(url: URL, pages: number): string {
  const next = new URLSearchParams(url.search);
  if (pages > 1) next.set("page", String(pages));
  else next.delete("page");
  return `${url.pathname}?${next}`;
}
