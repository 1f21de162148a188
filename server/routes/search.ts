import type { H3Event } from "h3";
import { searchAll } from "../../core/search.ts";
import { SearchParams, type SearchResponse } from "../../core/schemas/index.ts";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";
import { parseQuery } from "../query.ts";

/** Refuses source ids that are not in the registry (400); `listedAt` tells the caller where the ids are. */
export function checkSources(ids: readonly string[], deps: AppDeps, listedAt = "see /v1/providers for the ids"): void {
  const known = new Set(deps.sources.map((s) => s.id));
  const unknown = ids.filter((p) => !known.has(p));
  if (unknown.length) throw new ApiError(400, `unknown source '${unknown.join(",")}'; ${listedAt}`);
}

/** Validated parameters → the aggregated search (shared by the route, the MCP tool and the CLI). */
export async function runSearch(params: SearchParams, deps: AppDeps, listedAt?: string): Promise<SearchResponse> {
  checkSources(params.providers, deps, listedAt);
  return searchAll(params, {
    sources: deps.sources,
    index: deps.published.index,
    runtime: deps.runtime,
    breakers: deps.breakers,
    onSourceResult: (report) => deps.usage.sourceResult(report),
  });
}

/** GET /v1/search. */
export async function searchRoute(event: H3Event, deps: AppDeps): Promise<SearchResponse> {
  return runSearch(parseQuery(event, SearchParams), deps);
}
