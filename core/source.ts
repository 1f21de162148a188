import type { Config } from "./config.ts";
import type { HttpClient } from "./http/types.ts";
import type { Access, Asset, AssetDetails, AssetType, License, Pricing, Provider, SourceCensus } from "./schemas/index.ts";

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
}

interface SourceBase extends SourceMeta {
  /** The same search on the site, for people. */
  searchUrl(query: SourceQuery): string;
  getAsset?(nativeId: string, ctx: SourceContext): Promise<AssetDetails | null>;
  census?(ctx: SourceContext): Promise<SourceCensus>;
}

/** `crawl` feeds the pipeline's index; no upstream call at search time. */
export interface IndexedSource extends SourceBase {
  mode: "indexed";
  crawl(ctx: SourceContext): Promise<Asset[]>;
}

/** `search` is fanned out at search time. */
export interface LiveSource extends SourceBase {
  mode: "live";
  search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult>;
}

/** The site blocks bots: only `searchUrl`, never fetched. */
export interface LinkSource extends SourceBase {
  mode: "link";
}

/** The contract every source file implements, told apart by `mode`. */
export type Source = IndexedSource | LiveSource | LinkSource;

/** The public Provider view of a source. */
export function toProvider(source: Source, keys: Record<string, string | undefined>): Provider {
  const enabled = !source.key?.required || Boolean(keys[source.key.env]);
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
    ...(source.key ? { keyEnv: source.key.env } : {}),
    mode: source.mode,
  };
}
