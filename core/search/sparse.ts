import type { QueryPlan } from "../relevance/query-plan.ts";
import { expandTypes } from "../relevance/type-match.ts";
import type { AssetType, ProviderReport, SparseAnswer } from "../schemas/index.ts";

/**
 * A first page holding fewer answers than this (and than its limit) is a sparse answer: a person
 * reads ten results at a glance, and an agent that takes the first one should know it was alone.
 */
export const SPARSE_BELOW = 10;
/**
 * An answer whose best result holds less than this share of the query (querySharer, words weighed
 * by IDF: a typo-only match of one of two equally rare words holds 0.2) is sparse however many
 * results it shows: the junk floor keeps results as weak as the best, and the best is itself a
 * poor answer.
 */
export const SPARSE_SHARE = 0.5;

export interface SparseInput {
  /** How many results the page shows, after the junk floor (core/relevance/scoring.ts floor). */
  shown: number;
  limit: number;
  offset: number;
  /** The requested types, as the `type` parameter gave them. */
  types: readonly AssetType[];
  /** The query's words as the search read them: its type words name types. */
  plan: QueryPlan;
  providers: readonly ProviderReport[];
  /** The share of the query the first result holds (querySharer), when the answer is in relevance order. */
  bestShare?: number;
}

/**
 * What a search says when little answers it, or undefined when its first page is full enough and
 * its best result holds at least SPARSE_SHARE of the query (a later page that is short only
 * ends the list): the reason, the same search on the link-only sites
 * considered (their status lines' `searchUrl`), and the nearest type, one the query's own words
 * name that the type filter left out.
 */
export function sparseAnswer({ shown, limit, offset, types, plan, providers, bestShare }: SparseInput): SparseAnswer | undefined {
  const weak = shown > 0 && bestShare !== undefined && bestShare < SPARSE_SHARE;
  if (offset > 0 || (shown >= Math.min(limit, SPARSE_BELOW) && !weak)) return undefined;
  const requested = new Set(expandTypes(types));
  const nearestType = types.length ? plan.boost.find((t) => !requested.has(t)) : undefined;
  const share = weak ? Math.round(bestShare! * 100) / 100 : undefined;
  return {
    reason:
      shown === 0
        ? "nothing answers the query"
        : share !== undefined
          ? `the best result matches only ${Math.round(share * 100)} % of the query's words`
          : `only ${shown} result${shown === 1 ? "" : "s"} answer${shown === 1 ? "s" : ""} the query well`,
    shown,
    ...(share !== undefined ? { bestShare: share } : {}),
    suggestions: providers.flatMap((p) =>
      p.status === "link" && p.searchUrl ? [{ provider: p.provider, label: `Search ${p.name}`, searchUrl: p.searchUrl }] : [],
    ),
    ...(nearestType ? { nearestType } : {}),
  };
}
