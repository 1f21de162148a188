/**
 * The aggregated search, as every surface runs it: the HTTP route `GET /v1/search`, the MCP tool
 * `search_assets` (server/mcp/tools.ts) and `asset-search search` (cli/main.ts).
 */

import { type SearchArguments, SearchParams, type SearchResponse } from "../../core/schemas/index.ts";
import { searchAll } from "../../core/search.ts";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";
import { parseParams, queryValues } from "../query.ts";

/** Validates typed arguments (the MCP tool's, the command line's) exactly as /v1/search validates its query string: the same schema, the same 400s. */
export function parseSearch(args: SearchArguments): SearchParams {
  return parseParams(queryValues(args), SearchParams);
}

/** Refuses source ids that are not in the registry (400); `listedAt` tells the caller where the ids are. */
function checkSources(ids: readonly string[], deps: AppDeps, listedAt: string): void {
  const known = new Set(deps.sources.map((s) => s.id));
  const unknown = ids.filter((p) => !known.has(p));
  if (unknown.length) throw new ApiError(400, `unknown source '${unknown.join(",")}'; ${listedAt}`);
}

/** Validated parameters → the aggregated search; `listedAt` says, in the surface's terms, where the source ids are listed. */
export async function runSearch(params: SearchParams, deps: AppDeps, listedAt: string): Promise<SearchResponse> {
  checkSources([...params.providers, ...params.exclude], deps, listedAt);
  return searchAll(params, {
    sources: deps.sources,
    index: deps.published.index,
    runtime: deps.runtime,
    breakers: deps.breakers,
    onSourceResult: (report) => deps.usage.sourceResult(report),
  });
}
