import { pickFilters } from "../model/filters.ts";
import type { SearchParams } from "../model/search-params.ts";
import type { Source, SourceQuery } from "../model/source.ts";
import { planQuery, type QueryPlan } from "../relevance/query-plan.ts";
import { expandTypes, type TypeWish, typeWish } from "../relevance/type-match.ts";

/**
 * Everything one search derives from its parameters, made once: what each source is asked, the
 * query's words as the index and the ranking read them, and the types the type signal rewards
 * with the sources whose listings count as packs.
 */
export interface SearchPlan {
  params: SearchParams;
  query: SourceQuery;
  /** Typos off; the index's search may turn them on (gateTypos) and says so with the plan it used. */
  words: QueryPlan;
  wish: TypeWish;
}

export function planSearch(params: SearchParams, sources: readonly Source[]): SearchPlan {
  const words = planQuery(params.q);
  return {
    params,
    query: {
      q: params.q,
      types: expandTypes(params.type),
      free: params.free ?? false,
      downloadable: params.downloadable ?? false,
      limit: params.limit,
      offset: params.offset,
      filters: pickFilters(params),
      sort: params.sort,
    },
    words,
    wish: typeWish(params.type, words, new Set(sources.filter((s) => s.unit === "packs").map((s) => s.id))),
  };
}
