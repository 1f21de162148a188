/**
 * The aggregated search, as every surface runs it: the HTTP route `GET /v1/search`, the MCP tool
 * `search_assets` (server/mcp/tools.ts) and `asset-search search` (cli/main.ts).
 */

import { type SearchArguments, SearchParams } from "../../core/model/search-params.ts";
import type { SearchResponse } from "../../core/schemas/index.ts";
import { asResponse, type SearchAnswer } from "../../core/search/answer.ts";
import { type SearchDeps, type SearchObserver, type SearchOptions, searchRanked } from "../../core/search/search.ts";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";
import { parseParams, queryValues } from "../query.ts";
import type { ThumbnailUrls } from "./thumbnail-urls.ts";

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
  return asResponse(await prepareSearch(params, deps, listedAt)({}));
}

/**
 * The search in two steps, for the event stream of GET /v1/search: the source ids are checked now
 * (a 400 before anything of a stream is sent), and the returned function runs it with an end
 * (`signal`) and an observer that hears its parts as they come. Every result it answers with, in
 * a part or in the end, has its thumbnail URL remembered for GET /v1/assets/{id}/thumbnail, which
 * a page asks for as soon as it shows the result.
 */
export function prepareSearch(params: SearchParams, deps: AppDeps, listedAt: string): (options: SearchOptions) => Promise<SearchAnswer> {
  checkSources([...params.providers, ...params.exclude], deps, listedAt);
  const urls = deps.thumbnailUrls;
  if (!urls) return (options) => searchRanked(params, searchDeps(deps), options);
  return async (options) => {
    const res = await searchRanked(params, searchDeps(deps), { ...options, ...(options.observer ? { observer: remembering(options.observer, urls) } : {}) });
    urls.remember(res.results.map((r) => r.asset));
    return res;
  };
}

/** The observer, remembering the thumbnails of the parts it hears; only the parts it listens to (the search ranks a part only for a listener). */
function remembering(observer: SearchObserver, urls: ThumbnailUrls): SearchObserver {
  return {
    ...(observer.index && {
      index: (answer) => {
        urls.remember(answer.results);
        observer.index?.(answer);
      },
    }),
    ...(observer.source && {
      source: (answer) => {
        urls.remember(answer.results);
        observer.source?.(answer);
      },
    }),
  };
}

function searchDeps(deps: AppDeps): SearchDeps {
  return {
    sources: deps.sources,
    index: deps.published.index,
    runtime: deps.runtime,
    breakers: deps.breakers,
    onSourceResult: (report) => deps.usage.sourceResult(report),
  };
}
