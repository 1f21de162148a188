import SearchableMap from "minisearch/SearchableMap";
import type { Asset } from "../schemas/index.ts";
import { type AnalyzedDoc, analyze } from "../text/analyze.ts";
import { type CorpusStats, FIELD_WEIGHT_SUM, fieldSaturation, idf } from "./bm25.ts";
import type { QueryPlan } from "./query-plan.ts";
import { SCORING } from "./scoring.ts";
import { type MatchKind, type TermTable, type TermUse, termTable, vocabularyOf } from "./term-table.ts";

/** How well one asset matches a query; results are ordered by its band, then by score. */
export interface DocMatch {
  /** Share of the required words matched, typos included (1 when no word is required). */
  coverage: number;
  /** Share of the required words matched without a typo. */
  exactCoverage: number;
  /** 0 when every matched required word matched as a whole word, 1 when one matched only as a prefix, 2 only with a typo. */
  quality: 0 | 1 | 2;
  /** Text relevance in 0..1: per word, its IDF times its best match's weighted field saturation, over FIELD_WEIGHT_SUM per word (capped at 1). */
  text: number;
  /** The query words the text holds, in any way, as bits (word i: 1 << i; the first 31 words). */
  words: number;
  /**
   * The share of the query's words the text holds, in 0..1, each word weighed by its IDF (a rare word
   * says more) and by how it matched (whole word or synonym 1, only as the prefix or with a typo its
   * SCORING.kinds weight); type words count here only as text (querySharer adds the asset's type).
   */
  held: number;
}

/** An asset that holds no query word (a live source's own match we cannot see). */
export const NO_MATCH: DocMatch = { coverage: 0, exactCoverage: 0, quality: 0, text: 0, words: 0, held: 0 };
/** Every asset of a query without words. */
export const BROWSE_MATCH: DocMatch = { coverage: 1, exactCoverage: 1, quality: 0, text: 1, words: 0, held: 1 };

/** Best kind first: a word matched several ways counts its best. */
const KIND_RANK: Record<MatchKind, number> = { exact: 3, synonym: 3, prefix: 2, typo: 1 };
/** How much of its word a match of each rank holds (DocMatch.held): none, a typo, the prefix, the whole word. */
const HELD_BY_RANK = [0, SCORING.kinds.typo, SCORING.kinds.prefix, 1];

/**
 * The matches of many documents, one slot each, gathered term by term, then summed up by `finish`.
 * Flat arrays rather than an object per document: a broad query touches most of a large index.
 */
export class MatchTable {
  /** Per slot and query word: its best match's kind weight times field saturation, and that best kind's rank. */
  private best: Float64Array;
  private rank: Uint8Array;
  private slots = 0;

  constructor(
    private readonly words: number,
    capacity = 16,
  ) {
    this.best = new Float64Array(Math.max(capacity, 1) * words);
    this.rank = new Uint8Array(Math.max(capacity, 1) * words);
  }

  /** A new slot, with no match yet. */
  open(): number {
    if ((this.slots + 1) * this.words > this.best.length) {
      const best = new Float64Array(this.best.length * 2);
      best.set(this.best);
      this.best = best;
      const rank = new Uint8Array(this.rank.length * 2);
      rank.set(this.rank);
      this.rank = rank;
    }
    return this.slots++;
  }

  add(slot: number, use: TermUse, saturation: number): void {
    const value = SCORING.kinds[use.kind] * saturation;
    const rank = KIND_RANK[use.kind];
    const at = slot * this.words;
    for (const w of use.words) {
      if (value > this.best[at + w]!) this.best[at + w] = value;
      if (rank > this.rank[at + w]!) this.rank[at + w] = rank;
    }
  }

  /**
   * `weights`: each word's IDF (see wordWeights). `into` is filled and returned: a broad query need
   * not allocate one per document. Without `withHeld` (the index's pass over every document it touched,
   * which orders them by band and text) `into.held` is left as it was: it is read only of the
   * matches handed on, and this loop is the hot path of a broad query.
   */
  finish(slot: number, plan: QueryPlan, weights: readonly number[], into: DocMatch = { ...NO_MATCH }, withHeld = true): DocMatch {
    const at = slot * this.words;
    let required = 0;
    let matched = 0;
    let exact = 0;
    let worst = 3;
    let text = 0;
    let most = 0;
    let words = 0;
    let share = 0;
    for (let i = 0; i < plan.words.length; i++) {
      const rank = this.rank[at + i]!;
      if (rank) {
        if (i < 31) words |= 1 << i;
        if (withHeld) share += weights[i]! * HELD_BY_RANK[rank]!;
      }
      text += weights[i]! * this.best[at + i]!;
      most += weights[i]! * FIELD_WEIGHT_SUM;
      if (!plan.words[i]!.required) continue;
      required++;
      if (!rank) continue;
      matched++;
      if (rank > KIND_RANK.typo) exact++;
      worst = Math.min(worst, rank);
    }
    into.coverage = required ? matched / required : 1;
    into.exactCoverage = required ? exact / required : 1;
    into.quality = worst === 3 ? 0 : worst === 2 ? 1 : 2;
    into.text = most > 0 ? Math.min(1, text / most) : 0;
    into.words = words;
    // `most` is every word's weight once per field weight: the words' total weight, scaled alike.
    if (withHeld) into.held = most > 0 ? (share * FIELD_WEIGHT_SUM) / most : 1;
    return into;
  }
}

/** Each query word's IDF in the index: a rare word says more, however it was matched. */
export const wordWeights = (plan: QueryPlan, stats: CorpusStats): number[] => plan.words.map((w) => idf(w.term, stats));

/**
 * Which matches the index keeps: those holding at least SCORING.minShouldMatch of the required
 * words, rounded down, and at least one (any match when no word is required).
 */
export function keeps(plan: QueryPlan): (m: DocMatch) => boolean {
  const required = plan.words.filter((w) => w.required).length;
  const least = required ? Math.max(1, Math.floor(required * SCORING.minShouldMatch)) / required : 0;
  return (m) => m.coverage >= least - 1e-9;
}

/**
 * The band of a match as a number, lower is better: a match without typos before one found only
 * through typos before none; then by the share of required words matched; then whole words before
 * a prefix before a typo. Equal numbers are equally good matches.
 */
export function band(m: DocMatch): number {
  const tier = m.exactCoverage > 0 ? 0 : m.coverage > 0 ? 1 : 2;
  return tier * 10_000 + Math.round((1 - m.coverage) * 1000) * 10 + m.quality;
}

/** Matches of one analysed document, term by term of the document. */
function matchDoc(doc: AnalyzedDoc, plan: QueryPlan, table: TermTable, weights: readonly number[], stats: CorpusStats): DocMatch {
  const matches = new MatchTable(plan.words.length, 1);
  const slot = matches.open();
  for (const [term, counts] of doc.terms) {
    const uses = table.get(term);
    if (!uses) continue;
    const saturation = fieldSaturation(counts, doc.lengths, stats);
    for (const use of uses) matches.add(slot, use, saturation);
  }
  return matches.finish(slot, plan, weights);
}

/**
 * Matches of assets that are not in the index (live results), by the same rules and the index's
 * statistics; prefixes and typos are looked up among these assets' own words.
 */
export function matchAssets(assets: readonly Asset[], plan: QueryPlan, stats: CorpusStats): Map<string, DocMatch> {
  const out = new Map<string, DocMatch>();
  if (!assets.length) return out;
  if (!plan.words.length) {
    for (const a of assets) out.set(a.id, BROWSE_MATCH);
    return out;
  }
  const docs = assets.map(analyze);
  const words = new SearchableMap<true>();
  for (const doc of docs) for (const word of doc.words) words.set(word, true);
  const table = termTable(plan, vocabularyOf(words));
  const weights = wordWeights(plan, stats);
  for (const [i, a] of assets.entries()) out.set(a.id, matchDoc(docs[i]!, plan, table, weights, stats));
  return out;
}
