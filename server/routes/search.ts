import { SearchParams } from "../../core/model/search-params.ts";
import { errorResponse, jsonResponse, queryParameters, rateLimitedResponses, withEventStream } from "../openapi.ts";
import { parseQuery } from "../query.ts";
import { searchJson } from "../search-json.ts";
import { prepareSearch } from "../service/search.ts";
import { countSearch } from "../stats/hooks.ts";
import { API, get } from "./route.ts";
import { streamSearch, wantsEventStream } from "./search-stream.ts";

const LISTED_AT = "see /v1/providers for the ids";
/** The content type h3 gives an answer it writes as JSON itself; this route writes its own (server/search-json.ts). */
const JSON_CONTENT_TYPE = "application/json;charset=UTF-8";

export const searchRoute = get(
  "/v1/search",
  API,
  (deps) => (event) => {
    const params = parseQuery(event, SearchParams);
    // The answer depends on Accept (JSON or the event stream): a cache must keep them apart.
    event.res.headers.append("vary", "accept");
    if (wantsEventStream(event)) return streamSearch(event, deps, params, LISTED_AT);
    return countSearch(event, deps.usage, prepareSearch(params, deps, LISTED_AT)({})).then((res) => {
      event.res.headers.set("content-type", JSON_CONTENT_TYPE);
      return searchJson(res);
    });
  },
  {
    operationId: "searchAssets",
    tags: ["Search"],
    summary: "Search every enabled source at once",
    description:
      "Queries the sources in parallel (each with its own timeout), then merges, ranks and de-duplicates the results. Per-source failures are reported in `providers`, never as an error of the search.\n\n" +
      "With `Accept: text/event-stream` the same search answers as server-sent events, each with one line of JSON as its data (SearchStreamEvent): " +
      "`index` as soon as the index has answered (its results ranked among themselves, the status lines known then, the live sources still pending), " +
      "then `source` once per live source as it answers (its status line and its results), then `done` with the final SearchResponse, the same answer as the JSON one " +
      "(or `failed` with an Error body if the search itself failed). Invalid parameters are still a 400 JSON answer; the stream counts as one request and one search. " +
      "A client that closes the stream ends the search and its requests to the live sources.",
    parameters: queryParameters(SearchParams),
    responses: rateLimitedResponses({
      200: withEventStream(
        jsonResponse("Merged, ranked results and one status line per source; or, with `Accept: text/event-stream`, the search as it answers", "SearchResponse"),
        "SearchStreamEvent",
      ),
      400: errorResponse("Invalid parameters or unknown source id"),
    }),
  },
);
