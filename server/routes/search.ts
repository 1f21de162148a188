import type { H3Event } from "h3";
import { searchAll } from "../../core/search.ts";
import { SearchParams, type SearchResponse } from "../../core/schemas/index.ts";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";
import { parseQuery } from "../query.ts";

/** GET /v1/search (contract §4). */
export async function searchRoute(event: H3Event, deps: AppDeps): Promise<SearchResponse> {
  const params = parseQuery(event, SearchParams);
  const known = new Set(deps.sources.map((s) => s.id));
  const unknown = params.providers.filter((p) => !known.has(p));
  if (unknown.length) {
    throw new ApiError(400, `unknown source '${unknown.join(",")}'; see /v1/providers for the ids`);
  }
  return searchAll(params, { sources: deps.sources, index: deps.published.index, runtime: deps.runtime, breakers: deps.breakers });
}
