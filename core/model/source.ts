import type { Config } from "../config.ts";
import type { HttpClient } from "../http/types.ts";
import type { Access, Asset, AssetDetails, AssetType, License, Pricing, Provider, ProviderFiltering, SourceCensus } from "../schemas/index.ts";
import type { SearchFilters, Sort, SourceFiltering } from "./filters.ts";

/** What a source is asked for by one search (already validated). */
export interface SourceQuery {
  q: string;
  /** Empty = any type. Texture and material are already expanded to match each other. */
  types: AssetType[];
  free: boolean;
  downloadable: boolean;
  /** How many results the source should return at most. */
  limit: number;
  /** Per-source offset. */
  offset: number;
  /** Validated filters (core/model/filters.ts); a source passes upstream those its `filtering.upstream` names. */
  filters: SearchFilters;
  /** The order asked; a source that can ask its site for it does (`filtering.upstream` names "newest"/"popular"). */
  sort: Sort;
}

export interface SourceSearchResult {
  assets: Asset[];
  /** The source's own count of matches, when it says. */
  total?: number;
  searchUrl?: string;
}

export interface SourceContext {
  http: HttpClient;
  config: Config;
  signal?: AbortSignal;
  /** The clock, so census windows (last 30 days) are testable. */
  now: () => Date;
}

/** What a source is, whatever its mode: the static facts the providers list shows. */
export interface SourceMeta {
  id: string;
  name: string;
  homepage: string;
  description: string;
  assetTypes: AssetType[];
  access: Access;
  pricing: Pricing;
  license?: License;
  supportsDownload: boolean;
  /** Environment variable of the optional key, and whether the source needs it to work at all. */
  key?: { env: string; required: boolean };
  /** Search results of this source are `unit` items: single assets or packs. */
  unit?: "assets" | "packs";
  /** Live and link sources: which filters and sorts the site applies and which its listings let the search apply. */
  filtering?: SourceFiltering;
}

/** What every source can do; `C` is what its functions receive (the kit gives adapters more). */
interface Functions<C, Census> {
  /** The same search on the site, for people. */
  searchUrl(query: SourceQuery): string;
  getAsset?(nativeId: string, ctx: C): Promise<AssetDetails | null>;
  census?(ctx: C): Promise<Census>;
}

/** `crawl` feeds the pipeline's index; no upstream call at search time. */
export interface IndexedFunctions<C = SourceContext, Census = SourceCensus> extends Functions<C, Census> {
  mode: "indexed";
  crawl(ctx: C): Promise<Asset[]>;
}

/** `search` is fanned out at search time. */
export interface LiveFunctions<C = SourceContext, Census = SourceCensus> extends Functions<C, Census> {
  mode: "live";
  search(query: SourceQuery, ctx: C): Promise<SourceSearchResult>;
}

/** The site blocks bots: only `searchUrl`, never fetched. */
export interface LinkFunctions<C = SourceContext, Census = SourceCensus> extends Functions<C, Census> {
  mode: "link";
}

export type IndexedSource = SourceMeta & IndexedFunctions;
export type LiveSource = SourceMeta & LiveFunctions;
export type LinkSource = SourceMeta & LinkFunctions;

/** The contract every source file implements, told apart by `mode`. */
export type Source = IndexedSource | LiveSource | LinkSource;

/** The public Provider view of a source. */
export function toProvider(source: Source, keys: Record<string, string | undefined>): Provider {
  const keyConfigured = source.key !== undefined && Boolean(keys[source.key.env]);
  const enabled = !source.key?.required || keyConfigured;
  return {
    id: source.id,
    name: source.name,
    homepage: source.homepage,
    description: source.description,
    assetTypes: source.assetTypes,
    access: source.access,
    pricing: source.pricing,
    ...(source.license ? { license: source.license } : {}),
    supportsDownload: source.supportsDownload,
    enabled,
    ...(source.key ? { keyEnv: source.key.env, keyRequired: source.key.required, keyConfigured } : {}),
    mode: source.mode,
    filtering: filteringOf(source),
  };
}

/** An indexed source's filters are whatever its records carry, which the index knows; the others say theirs. */
function filteringOf(source: Source): ProviderFiltering {
  if (source.mode === "indexed") return { index: true, upstream: [], listed: [] };
  const { upstream = [], listed = [] } = source.filtering ?? {};
  return { index: false, upstream: [...upstream], listed: [...listed] };
}
