import MiniSearch, { type Options, type SearchOptions } from "minisearch";
import { gunzipSync, gzipSync } from "node:zlib";
import type { Asset } from "./schemas/index.ts";

/** The fields a document of the index holds: the text fields searched, plus the filter fields stored. */
type Doc = Pick<Asset, "id" | "title" | "provider" | "type" | "downloadable"> & {
  tags: string;
  categories: string;
  description: string;
  author: string;
  free: boolean;
};

/**
 * MiniSearch options, every choice written down (DESIGN.md §8).
 * - fields: what is searched; storeFields: what the filters read without touching the records.
 * - tokenize: MiniSearch's default (Unicode space and punctuation), also splitting camelCase and
 *   snake_case slugs such as "ArmChair_01", so "arm chair" finds them.
 */
export const INDEX_OPTIONS: Options<Doc> = {
  idField: "id",
  fields: ["title", "tags", "categories", "description", "author"],
  storeFields: ["provider", "type", "downloadable", "free"],
  tokenize: (text) =>
    text
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .split(/[\s\p{P}\p{S}_]+/u)
      .filter(Boolean),
};

/**
 * Search options: every term required (AND), prefix matching on the last term only (the one being
 * typed), typo tolerance only on terms of 5+ characters (short terms fuzzed match everything),
 * title weighted above tags above categories above the rest.
 */
export const QUERY_OPTIONS: SearchOptions = {
  combineWith: "AND",
  prefix: (_term, i, terms) => i === terms.length - 1,
  fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
  boost: { title: 3, tags: 2, categories: 1.5, description: 0.5, author: 1 },
};

export interface IndexFilter {
  providers?: ReadonlySet<string>;
  types?: ReadonlySet<string>;
  /** Sources whose listings are packs: with "pack" in `types`, all their assets match. */
  packProviders?: ReadonlySet<string>;
  free?: boolean;
  downloadable?: boolean;
}

export interface IndexHit {
  asset: Asset;
  /** MiniSearch's relevance score (unbounded; the ranker normalises). */
  relevance: number;
}

/** The document MiniSearch indexes for an asset (also used by the ranker). */
export const toDoc = (a: Asset): Doc => ({
  id: a.id,
  title: a.title,
  provider: a.provider,
  type: a.type,
  downloadable: a.downloadable,
  tags: a.tags.join(" "),
  categories: (a.categories ?? []).join(" "),
  description: a.description ?? "",
  author: a.author ?? "",
  free: a.price?.free ?? false,
});

/** The prebuilt index of the indexed sources: the MiniSearch index plus the asset records. */
export class AssetIndex {
  private readonly byId: Map<string, Asset>;

  private constructor(
    private readonly mini: MiniSearch<Doc>,
    readonly assets: Asset[],
    readonly builtAt: string,
  ) {
    this.byId = new Map(assets.map((a) => [a.id, a]));
  }

  static build(assets: Asset[], builtAt = new Date().toISOString()): AssetIndex {
    const mini = new MiniSearch<Doc>(INDEX_OPTIONS);
    const unique = [...new Map(assets.map((a) => [a.id, a])).values()];
    mini.addAll(unique.map(toDoc));
    return new AssetIndex(mini, unique, builtAt);
  }

  static empty(): AssetIndex {
    return AssetIndex.build([], new Date(0).toISOString());
  }

  /** Reads `index.json.gz` as written by `serialize`. */
  static deserialize(gz: Buffer): AssetIndex {
    const data = JSON.parse(gunzipSync(gz).toString("utf8")) as { builtAt: string; assets: Asset[]; index: unknown };
    const mini = MiniSearch.loadJS(data.index as never, INDEX_OPTIONS);
    return new AssetIndex(mini, data.assets, data.builtAt);
  }

  serialize(): Buffer {
    return gzipSync(JSON.stringify({ builtAt: this.builtAt, assets: this.assets, index: this.mini.toJSON() }));
  }

  get(id: string): Asset | undefined {
    return this.byId.get(id);
  }

  /** Every matching asset, best first; an empty query matches every asset that passes the filter. */
  search(q: string, filter: IndexFilter = {}): IndexHit[] {
    const passes = (r: Record<string, unknown>) =>
      (!filter.providers || filter.providers.has(r.provider as string)) &&
      (!filter.types ||
        filter.types.has(r.type as string) ||
        (filter.types.has("pack") && filter.packProviders?.has(r.provider as string) === true)) &&
      (!filter.free || r.free === true) &&
      (!filter.downloadable || r.downloadable === true);
    const query = q.trim() ? q : MiniSearch.wildcard;
    return this.mini
      .search(query, { ...QUERY_OPTIONS, filter: passes })
      .map((r) => ({ asset: this.byId.get(r.id as string)!, relevance: r.score }))
      .filter((h) => h.asset !== undefined);
  }
}
