import type { H3Event } from "h3";
import { SearchParams, type SearchResponse } from "../../core/schemas/index.ts";
import type { AppDeps } from "../context.ts";
import { parseQuery } from "../query.ts";
import { runSearch } from "../service/search.ts";

/** GET /v1/search. */
export async function searchRoute(event: H3Event, deps: AppDeps): Promise<SearchResponse> {
  return runSearch(parseQuery(event, SearchParams), deps, "see /v1/providers for the ids");
}
