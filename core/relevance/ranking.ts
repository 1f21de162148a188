import type { Asset, AssetType } from "../schemas/index.ts";
import { type CorpusStats, NO_INDEX } from "./bm25.ts";
import { band, type DocMatch, matchAssets, NO_MATCH, wordWeights } from "./match.ts";
import { planQuery, type QueryPlan } from "./query-plan.ts";
import { SCORING } from "./scoring.ts";
import { expandTypes, isOfTypes, isWished, type TypeWish, typeWish } from "./type-match.ts";

export interface RankCandidate {
  asset: Asset;
  /** Position in its source's own result list (0 = the source's best); one list for all indexed sources. */
  sourceRank: number;
  /** How many results that list holds. */
  sourceCount: number;
  /** The index's match; live results are matched here, by the same rules. */
  match?: DocMatch;
}

export interface RankQuery {
  q: string;
  /** The requested types (the `type` parameter). */
  types: readonly AssetType[];
  /** The plan as the index searched it (typos on or off); else read from `q`, typos off. */
  plan?: QueryPlan;
  /** Else the requested types and the type words' ones, with no pack sources. */
  wish?: TypeWish;
  /** The index's statistics, which live results are scored against too; else no index's (every word weighs alike). */
  stats?: CorpusStats;
  /**
   * The best result of the whole search when these candidates are a later page of it (the index's
   * first hit): the junk floor's measure where it ranks above the best of these, so that a result
   * far weaker than the best is shown on no page.
   */
  best?: RankCandidate;
}

/** A result as the ranking places it: its record, untouched, and its score in 0..1. */
export interface Ranked {
  asset: Asset;
  score: number;
}

/** A ranked result with the match it was ranked by, which the search's sparse answer reads. */
export interface RankedMatch extends Ranked {
  match: DocMatch;
}

/** Whether a result is shown as an answer beside the best (answerTest, SCORING.floor). */
export type AnswerTest = (asset: Asset, match: DocMatch) => boolean;

interface Scored {
  asset: Asset;
  match: DocMatch;
  /** band(match), kept: it is compared over and over. */
  band: number;
  /** The score within its band (SCORING.weights), 0..1. */
  score: number;
}

const W = SCORING.weights;
const typeScore = (asset: Asset, wish: TypeWish) => (wish.types.size === 0 || isWished(asset, wish) ? 1 : 0);
/** A match's score from its text relevance and its type signal (typeScore: 1 or 0). */
const scoreOf = (match: DocMatch, typeSignal: number) => W.text * match.text + W.type * typeSignal;
/** A match's score before its source's rank: text and type. */
const matchScore = (asset: Asset, match: DocMatch, wish: TypeWish) => scoreOf(match, typeScore(asset, wish));

/**
 * compareTies's rule by name. An index numbers its documents in this order and its file records
 * the name (core/index/file.ts), so a file built under another rule is refused, not misread:
 * a change to compareTies takes a new name.
 */
export const TIE_ORDER = "free, downloadable, id";

/** What breaks a tie of scores: free first, then downloadable, then by id. */
export function compareTies(a: Asset, b: Asset): number {
  return (
    Number(b.price?.free === true) - Number(a.price?.free === true) ||
    Number(b.downloadable) - Number(a.downloadable) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** Band, then score, then ties. */
const compareScored = (a: Scored, b: Scored): number => a.band - b.band || b.score - a.score || compareTies(a.asset, b.asset);

/**
 * A hit's place in the one index ranking, lower first (the order per-source paging and the shared
 * source rank read): its band, then its score without the source rank. One number, sorting being
 * the hot path: bands are whole numbers and a score is at most 1, halved. `typeSignal`: typeScore's.
 */
export const orderKey = (match: DocMatch, typeSignal: number): number => band(match) - scoreOf(match, typeSignal) / 2;

/**
 * Greedily takes the best remaining result after decaying each by how many of its source are
 * already placed, but only within the band of the best and only past results whose text relevance
 * is at most SCORING.diversity.closeText above its own: a weak match never climbs over a strong one.
 */
function diversify(sorted: Scored[]): Scored[] {
  const { decay, closeText } = SCORING.diversity;
  // Each source's current decay factor, by a small number per source: this loop is quadratic.
  const sourceOf = new Map<string, number>();
  for (const c of sorted) if (!sourceOf.has(c.asset.provider)) sourceOf.set(c.asset.provider, sourceOf.size);
  const source = sorted.map((c) => sourceOf.get(c.asset.provider)!);
  const factor = new Array<number>(sourceOf.size).fill(1);
  const pool = sorted.map((_, i) => i);
  const out: Scored[] = [];
  while (pool.length) {
    const head = sorted[pool[0]!]!;
    let pick = 0;
    let best = head.score * factor[source[pool[0]!]!]!;
    let strongest = head.match.text;
    for (let i = 1; i < pool.length; i++) {
      const c = sorted[pool[i]!]!;
      if (c.band !== head.band || c.score <= best) break;
      const decayed = c.score * factor[source[pool[i]!]!]!;
      if (c.match.text >= strongest - closeText && decayed > best + 1e-12) {
        pick = i;
        best = decayed;
      }
      strongest = Math.max(strongest, c.match.text);
    }
    const [chosen] = pool.splice(pick, 1);
    factor[source[chosen!]!]! *= decay;
    out.push({ ...sorted[chosen!]!, score: best });
  }
  return out;
}

/** The query's type words: each one's bit in DocMatch.words, its types (texture and material alike) and its index. */
const typeWordsOf = (plan: QueryPlan) =>
  plan.words.flatMap((w, i) => (w.required ? [] : [{ i, bit: i < 31 ? 1 << i : 0, types: new Set(expandTypes(w.types ?? [])) }]));

/**
 * How many of the query's words a match holds, as a share in 0..1 (1 for a query without words),
 * every word alike: each required word by how it matched (whole word or synonym 1, only as the
 * prefix SCORING.kinds.prefix, only with a typo SCORING.kinds.typo); each type word 1 when the text
 * holds it or the asset is of one of the types it names (a pack source's listing for "pack").
 */
export function wordSharer(plan: QueryPlan, packProviders: ReadonlySet<string>): (asset: Asset, match: DocMatch) => number {
  const required = plan.words.filter((w) => w.required).length;
  const typeWords = typeWordsOf(plan);
  const { prefix, typo } = SCORING.kinds;
  return (asset, m) => {
    if (!plan.words.length) return 1;
    const typos = required * (m.coverage - m.exactCoverage);
    // A prefix match counts among the exact ones (match.ts): quality 1 says one word matched only so.
    let held = required * m.exactCoverage - (m.quality === 1 && m.exactCoverage > 0 ? 1 - prefix : 0) + typos * typo;
    for (const w of typeWords) if (m.words & w.bit || isOfTypes(asset, w.types, packProviders)) held++;
    return held / plan.words.length;
  };
}

/**
 * How much of the query a match holds, in 0..1 (1 for a query without words), each word weighed by
 * its IDF in `stats` (wordWeights), so that the rare word of "night sky" counts more than the common
 * one: the text's share (DocMatch.held, each word by how it matched, as wordSharer counts it) and
 * each type word the text does not hold when the asset is of one of its types.
 */
export function querySharer(plan: QueryPlan, packProviders: ReadonlySet<string>, stats: CorpusStats): (asset: Asset, match: DocMatch) => number {
  const weights = wordWeights(plan, stats);
  const total = weights.reduce((sum, w) => sum + w, 0);
  const typeWords = typeWordsOf(plan);
  return (asset, m) => {
    if (!plan.words.length) return 1;
    let held = m.held;
    for (const w of typeWords) if (!(m.words & w.bit) && isOfTypes(asset, w.types, packProviders)) held += weights[w.i]! / total;
    return Math.min(1, held);
  };
}

/**
 * The junk floor (SCORING.floor): whether a result is shown as an answer beside `best`, the first
 * of the ranking before diversity. It is not when it holds fewer of the query's words than the best
 * (wordSharer) and either its text relevance is below SCORING.floor.text of the best's or it holds
 * less than SCORING.floor.share of the query, words weighed by IDF (querySharer).
 */
function answerTest(best: Scored, plan: QueryPlan, wish: TypeWish, stats: CorpusStats): AnswerTest {
  const words = wordSharer(plan, wish.packProviders);
  const share = querySharer(plan, wish.packProviders, stats);
  const bestWords = words(best.asset, best.match);
  const least = SCORING.floor.text * best.match.text;
  return (asset, match) => words(asset, match) >= bestWords - 1e-9 || (match.text >= least && share(asset, match) >= SCORING.floor.share);
}

/**
 * Scores in 0..1 that follow the order: with B bands of matches in the list, band k (0 = best)
 * holds (B - 1 - k + score) / B; within a band a score never rises above the one before it.
 */
function withScores(ranked: Scored[]): RankedMatch[] {
  const count = new Set(ranked.map((c) => c.band)).size;
  let k = 0;
  let ceiling = 1;
  return ranked.map((c, i) => {
    if (i > 0 && c.band !== ranked[i - 1]!.band) {
      k++;
      ceiling = 1;
    }
    ceiling = Math.min(ceiling, Math.max(0, c.score));
    return { asset: c.asset, score: Math.round(((count - 1 - k + ceiling) / count) * 10000) / 10000, match: c.match };
  });
}

/**
 * The one ranking of every result, index hit or live: bands of match quality (core/relevance/match.ts band),
 * within a band text relevance, the source's rank and the type signal (SCORING.weights), ties
 * broken by free, downloadable, id; then the diversity rule; then the junk floor (answers). Best
 * first, each with its score in 0..1.
 */
export const rank = (candidates: RankCandidate[], query: RankQuery): RankedMatch[] => rankWithFloor(candidates, query).ranked;

/**
 * `rank`'s ranking and the junk floor it applied: for the facets, which count every hit of a search
 * and not only the page ranked, and so must leave out what no page shows.
 */
export function rankWithFloor(candidates: RankCandidate[], query: RankQuery): { ranked: RankedMatch[]; isAnswer: AnswerTest } {
  const { scored, isAnswer } = scoreAll(candidates, query);
  return { ranked: withScores(diversify(scored).filter((c) => isAnswer(c.asset, c.match))), isAnswer };
}

/** The candidates scored and sorted, and the junk floor measured from the best of them or of the whole search. */
function scoreAll(candidates: RankCandidate[], query: RankQuery): { scored: Scored[]; isAnswer: AnswerTest } {
  const plan = query.plan ?? planQuery(query.q);
  const wish = query.wish ?? typeWish(query.types, plan, new Set());
  const stats = query.stats ?? NO_INDEX;
  const live = matchAssets(
    candidates.filter((c) => !c.match).map((c) => c.asset),
    plan,
    stats,
  );
  const toScored = ({ asset, sourceRank, sourceCount, match }: RankCandidate): Scored => {
    const m = match ?? live.get(asset.id) ?? NO_MATCH;
    return { asset, match: m, band: band(m), score: matchScore(asset, m, wish) + W.sourceRank * (1 - sourceRank / Math.max(sourceCount, 1)) };
  };
  const scored = candidates.map(toScored).sort(compareScored);
  const overall = query.best?.match ? toScored(query.best) : undefined;
  const best = overall && (!scored[0] || compareScored(overall, scored[0]) < 0) ? overall : scored[0];
  return { scored, isAnswer: best ? answerTest(best, plan, wish, stats) : () => true };
}
