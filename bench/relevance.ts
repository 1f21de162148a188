import { loadPublished } from "../core/publication/published.ts";
import { dedupe } from "../core/relevance/dedupe.ts";
import { type Asset, SearchResponse } from "../core/schemas/index.ts";
import { BreakerRegistry } from "../core/search/circuit-breaker.ts";
import { createApp } from "../server/app.ts";
import { createUsage } from "../server/stats/usage.ts";
import { SOURCES } from "../sources/index.ts";
import { NOW } from "../test/helpers/app.ts";
import { replayRuntime } from "../test/helpers/replay.ts";
import { type JudgedQuery, type JudgedSet, loadJudgedSet } from "../test/relevance/judged-set.ts";
import { REPLAY_KEYS } from "../test/relevance/pool.ts";

/** Grade at which a result counts as relevant (P@5, queries without a relevant result). */
export const RELEVANT = 2;
const CUTOFF = 10;
/** Grade at which a judged asset counts toward a query's relevant assets for the junk share (any grade but 0). */
export const ANY_RELEVANCE = 1;

/**
 * The junk share: of the results shown in the top 10 of the queries with fewer than ten relevant
 * assets (judgments of grade ≥ 1), the share graded 0, pooled over those queries (a query showing
 * fewer results weighs less). Those are the queries a search pads when it fills ten places with
 * whatever matched something. 0 when no such query shows a result.
 */
export function junkShare(queries: readonly { grades: readonly number[]; judged: readonly number[] }[]): {
  share: number;
  queries: number;
  shown: number;
  junk: number;
} {
  const few = queries.filter((q) => q.judged.filter((g) => g >= ANY_RELEVANCE).length < CUTOFF);
  const shown = few.reduce((sum, q) => sum + Math.min(q.grades.length, CUTOFF), 0);
  const junk = few.reduce((sum, q) => sum + q.grades.slice(0, CUTOFF).filter((g) => g === 0).length, 0);
  return { share: shown ? junk / shown : 0, queries: few.length, shown, junk };
}

const gain = (grade: number) => 2 ** grade - 1;
const dcg = (grades: readonly number[]) => grades.slice(0, CUTOFF).reduce((sum, g, i) => sum + gain(g) / Math.log2(i + 2), 0);

/** NDCG@10 of the grades in result order; the ideal order is every judgment of the query, best first. */
export function ndcgAt10(grades: readonly number[], judged: readonly number[]): number {
  const ideal = dcg([...judged].sort((a, b) => b - a));
  return ideal === 0 ? 0 : dcg(grades) / ideal;
}

/** Share of the first five places holding a relevant result (an empty place counts as not relevant). */
export function precisionAt5(grades: readonly number[]): number {
  return grades.slice(0, 5).filter((g) => g >= RELEVANT).length / 5;
}

/** A listing merged from several sources is as relevant as the best of the listings it stands for. */
export function gradeOf(asset: Asset, judgments: JudgedQuery["judgments"]): number {
  return Math.max(...[asset.id, ...(asset.alsoOn ?? []).map((a) => a.id)].map((id) => judgments[id] ?? 0));
}

/**
 * A query's judgments per asset rather than per listing: catalogue records that a search shows as
 * one result (the same title and author, a font family, a thumbnail, a republication and its
 * original: core/relevance/dedupe.ts) count once, with the best of their grades, as gradeOf grades
 * that one result. Without it the ideal order would hold both listings, which no answer can show.
 */
export function judgedAssets(judgments: JudgedQuery["judgments"], catalogue: ReadonlyMap<string, Asset>): number[] {
  const listed = Object.keys(judgments).flatMap((id) => (catalogue.has(id) ? [{ asset: catalogue.get(id)!, access: "api" as const }] : []));
  const merged = dedupe(listed).map((l) => gradeOf(l.asset, judgments));
  return [...merged, ...Object.entries(judgments).flatMap(([id, grade]) => (catalogue.has(id) ? [] : [grade]))];
}

export interface QueryFigures {
  id: string;
  ndcg10: number;
  p5: number;
  /** Results of grade 2 or 3 in the top 10. */
  relevantInTop10: number;
  /** The top 10 as `grade id`, to see what the engine put there. */
  top10: string[];
}

/** `/v1/search` parameters as a user sends them for this query; the default limit, whose first ten are judged. */
function searchPath(query: JudgedQuery): string {
  const params = new URLSearchParams({ q: query.q });
  if (query.type) params.set("type", query.type);
  if (query.providers) params.set("providers", query.providers);
  if (query.free) params.set("free", "true");
  return `/v1/search?${params}`;
}

/**
 * Runs every query of the judged set through the whole service offline — the app over the
 * committed data/ index (the catalogue the set was judged from) with live sources answered by the
 * recordings — and scores the first ten results. The request keeps the default limit (24): the
 * recordings hold the live sources' pages for that limit, and a user sees the same first ten.
 */
export async function measureRelevance(set: JudgedSet = loadJudgedSet()) {
  const published = loadPublished("data");
  const catalogue = new Map([...published.index.records()].map((a) => [a.id, a]));
  const runtime = replayRuntime({ now: NOW, env: { RATE_LIMIT_PER_MINUTE: "0", ...REPLAY_KEYS } });
  const usage = createUsage();
  const queries: QueryFigures[] = [];
  const gradings: { grades: number[]; judged: number[] }[] = [];
  for (const query of set.queries) {
    // Fresh circuit breakers per query: a source's failures in one query never skip it in the next.
    const app = createApp({ runtime, sources: SOURCES, published, breakers: new BreakerRegistry(), usage });
    const res = await app.fetch(new Request(`http://localhost${searchPath(query)}`));
    if (res.status !== 200) throw new Error(`${query.id}: /v1/search answered ${res.status}`);
    const top = SearchResponse.parse(await res.json()).results.slice(0, CUTOFF);
    const grades = top.map((a) => gradeOf(a, query.judgments));
    const judged = judgedAssets(query.judgments, catalogue);
    gradings.push({ grades, judged });
    queries.push({
      id: query.id,
      ndcg10: ndcgAt10(grades, judged),
      p5: precisionAt5(grades),
      relevantInTop10: grades.filter((g) => g >= RELEVANT).length,
      top10: top.map((a, i) => `${grades[i]} ${a.id}`),
    });
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    queries: queries.length,
    meanNdcg10: mean(queries.map((q) => q.ndcg10)),
    meanP5: mean(queries.map((q) => q.p5)),
    withoutRelevant: queries.filter((q) => q.relevantInTop10 === 0).map((q) => q.id),
    junk: junkShare(gradings),
    perQuery: queries,
  };
}
