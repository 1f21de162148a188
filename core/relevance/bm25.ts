import { FIELDS } from "../text/analyze.ts";
import { SCORING } from "./scoring.ts";

/** Statistics of the index that text relevance reads, computed once when the index is loaded. */
export interface CorpusStats {
  documentCount: number;
  /** Per field (FIELDS order), its average length in words. */
  averageLengths: readonly number[];
  /** In how many documents the term occurs (0 for a term the index does not hold). */
  documentFrequency(term: string): number;
}

/** Statistics of no index: every term is as rare, every field of average length. */
export const NO_INDEX: CorpusStats = { documentCount: 0, averageLengths: [], documentFrequency: () => 0 };

const FIELD_WEIGHTS = FIELDS.map((f) => SCORING.fields[f]);
/** A word once in every field of average length: what text relevance is measured against. */
export const FIELD_WEIGHT_SUM = FIELD_WEIGHTS.reduce((a, b) => a + b, 0);

/** BM25's saturation of a term's counts, weighted by field: the part of relevance a term brings to a document. */
export function fieldSaturation(counts: readonly number[], lengths: readonly number[], stats: CorpusStats): number {
  const { k1, b } = SCORING.bm25;
  let sum = 0;
  for (let f = 0; f < counts.length; f++) {
    const tf = counts[f]!;
    if (!tf) continue;
    // Without an index's averages a field counts as of average length.
    const average = (stats.averageLengths[f] ?? lengths[f]!) || 1;
    sum += (FIELD_WEIGHTS[f]! * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lengths[f]!) / average));
  }
  return sum;
}

/** BM25's inverse document frequency. */
export function idf(term: string, stats: CorpusStats): number {
  const df = stats.documentFrequency(term);
  return Math.log(1 + (stats.documentCount - df + 0.5) / (df + 0.5));
}
