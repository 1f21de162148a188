/**
 * Assets related to one asset of the index, each with the reasons it is related: the seed's most
 * telling terms gather candidates from the index's postings (a bounded read), the similarity rules
 * (core/relevance/similarity.ts) weigh each candidate's shared series, authors, categories, tags
 * and title words, and listings of one asset on several sources become one result with `alsoOn`.
 * The seed itself and its own listings on other sources are left out.
 */
import type { AssetIndex } from "../index/search-index.ts";
import type { Source } from "../model/source.ts";
import { dedupe, type Listing } from "../relevance/dedupe.ts";
import { relate, SIMILARITY, seedOf, seedTerms } from "../relevance/similarity.ts";
import { expandTypes } from "../relevance/type-match.ts";
import type { Asset, AssetType, SimilarAsset, SimilarResponse } from "../schemas/index.ts";

export interface SimilarQuery {
  limit: number;
  /** Only these types (texture and material match each other); empty: every type. */
  type: readonly AssetType[];
}

/** Scores are written to three decimals: their last digits say nothing. */
const rounded = (score: number) => Math.round(score * 1000) / 1000;

/** The assets related to the index's asset `id`, best first; undefined when the index does not hold it. */
export function similarAssets(index: AssetIndex, sources: readonly Source[], id: string, query: SimilarQuery): SimilarResponse | undefined {
  const asset = index.get(id);
  if (!asset) return undefined;
  const seed = seedOf(asset, index);
  const packProviders = new Set(sources.filter((s) => s.unit === "packs").map((s) => s.id));
  const filter = query.type.length ? { filter: { types: new Set(expandTypes(query.type)), packProviders } } : {};
  const pool = Math.max(SIMILARITY.pool, 3 * query.limit);
  const candidates = index.related(seedTerms(asset, index), { perSource: SIMILARITY.perSource, pool, skip: id, ...filter });

  const related = new Map<string, { asset: Asset; score: number; overlap: number; reasons: SimilarAsset["reasons"] }>();
  for (const { asset: candidate, overlap } of candidates) {
    const { score, reasons } = relate(seed, candidate);
    if (reasons.length) related.set(candidate.id, { asset: candidate, score, overlap, reasons });
  }
  const order = [...related.entries()].sort(([a, x], [b, y]) => y.score - x.score || y.overlap - x.overlap || (a < b ? -1 : 1));

  const accessOf = new Map(sources.map((s) => [s.id, s.access]));
  const listing = (a: Asset): Listing => ({ asset: a, access: accessOf.get(a.provider) ?? "scrape" });
  const merged = dedupe([listing(asset), ...order.map(([, r]) => listing(r.asset))]);
  const isSeed = (a: Asset) => a.id === id || a.alsoOn?.some((o) => o.id === id) === true;
  const results = merged
    .filter((l) => !isSeed(l.asset))
    .slice(0, query.limit)
    .map(({ asset: a }): SimilarAsset => {
      const { score, reasons } = related.get(a.id)!;
      return { ...a, score: rounded(score), reasons };
    });
  return { id, results };
}
