import MiniSearch, { type SearchResult } from "minisearch";
import { INDEX_OPTIONS, QUERY_OPTIONS, toDoc } from "./search-index.ts";
import type { Asset, AssetType } from "./schemas/index.ts";

export interface RankCandidate {
  asset: Asset;
  /** Position in its source's own result list (0 = the source's best). */
  sourceRank: number;
  /** How many results that source returned. */
  sourceCount: number;
}

/** Weights of the signals; they sum to 1 so a score is in 0..1 before the diversity rule. */
export const RANK_WEIGHTS = { text: 0.55, sourceRank: 0.15, typeMatch: 0.1, downloadable: 0.1, free: 0.1 } as const;
/** Each further result of the same source is multiplied by this, so one source cannot fill a page. */
export const DIVERSITY_DECAY = 0.85;

/** Share of whole-word matching in text relevance; the rest is prefix and typo matching. */
const EXACT_SHARE = 0.7;

/**
 * Text relevance of every candidate against the query, from one MiniSearch over the candidates
 * themselves, so index hits and live results are scored by the same rule. OR-combined: a live
 * source may return results its own search matched loosely; those just score lower. Whole-word
 * matches weigh most: otherwise a rare longer word ("Olive Trees") outranks the word itself
 * ("Tree"), whose many matches lower its IDF. 0..1.
 */
function textRelevance(candidates: RankCandidate[], q: string): Map<string, number> {
  const out = new Map<string, number>();
  if (!q.trim() || !candidates.length) return out;
  const mini = new MiniSearch({ ...INDEX_OPTIONS, storeFields: [] });
  const seen = new Set<string>();
  for (const { asset } of candidates) {
    if (seen.has(asset.id)) continue;
    seen.add(asset.id);
    mini.add(toDoc(asset));
  }
  const loose = normalized(mini.search(q, { ...QUERY_OPTIONS, combineWith: "OR" }));
  const exact = normalized(mini.search(q, { ...QUERY_OPTIONS, combineWith: "OR", prefix: false, fuzzy: false }));
  for (const [id, score] of loose) out.set(id, EXACT_SHARE * (exact.get(id) ?? 0) + (1 - EXACT_SHARE) * score);
  return out;
}

/** Hit scores divided by the best one. */
function normalized(hits: SearchResult[]): Map<string, number> {
  const max = Math.max(...hits.map((h) => h.score), 0);
  return new Map(hits.map((h) => [h.id as string, max > 0 ? h.score / max : 0]));
}

/**
 * The one ranking function for every result: text relevance (title, tags, categories, description
 * with field weights), the source's own rank, exact type match, free and downloadable signals,
 * then a diversity rule. Returns the assets best first with `score` in 0..1; ties broken by id.
 */
export function rank(candidates: RankCandidate[], query: { q: string; types: AssetType[] }): Asset[] {
  const text = textRelevance(candidates, query.q);
  const wanted = new Set(query.types);
  const base = candidates.map(({ asset, sourceRank, sourceCount }) => {
    const w = RANK_WEIGHTS;
    const score =
      w.text * (query.q.trim() ? (text.get(asset.id) ?? 0) : 1) +
      w.sourceRank * (1 - sourceRank / Math.max(sourceCount, 1)) +
      w.typeMatch * (wanted.size === 0 || wanted.has(asset.type) ? 1 : 0) +
      w.downloadable * (asset.downloadable ? 1 : 0) +
      w.free * (asset.price?.free ? 1 : 0);
    return { asset, score };
  });
  base.sort((a, b) => b.score - a.score || (a.asset.id < b.asset.id ? -1 : 1));

  // Diversity: greedily take the best remaining after decaying by how many of its source are placed.
  const placed = new Map<string, number>();
  const out: Asset[] = [];
  const pool = [...base];
  while (pool.length) {
    let bestIndex = 0;
    let bestScore = -1;
    pool.forEach((c, i) => {
      const s = c.score * DIVERSITY_DECAY ** (placed.get(c.asset.provider) ?? 0);
      if (s > bestScore + 1e-12) {
        bestScore = s;
        bestIndex = i;
      }
    });
    const [chosen] = pool.splice(bestIndex, 1);
    placed.set(chosen!.asset.provider, (placed.get(chosen!.asset.provider) ?? 0) + 1);
    out.push({ ...chosen!.asset, score: Math.round(Math.min(1, Math.max(0, bestScore)) * 10000) / 10000 });
  }
  return out;
}
