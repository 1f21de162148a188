import { errorResponse, jsonResponse, queryParameters, rateLimitedResponses } from "../../core/openapi.ts";
import { SearchParams } from "../../core/schemas/index.ts";
import { parseQuery } from "../query.ts";
import { runSearch } from "../service/search.ts";
import { countSearch } from "../stats/hooks.ts";
import { API, get } from "./route.ts";

export const searchRoute = get(
  "/v1/search",
  API,
  (deps) => async (event) => countSearch(event, deps.usage, runSearch(parseQuery(event, SearchParams), deps, "see /v1/providers for the ids")),
  {
    operationId: "searchAssets",
    tags: ["Search"],
    summary: "Search every enabled source at once",
    description:
      "Queries the sources in parallel (each with its own timeout), then merges, ranks and de-duplicates the results. Per-source failures are reported in `providers`, never as an error of the search.",
    parameters: queryParameters(SearchParams),
    responses: rateLimitedResponses({
      200: jsonResponse("Merged, ranked results and one status line per source", "SearchResponse"),
      400: errorResponse("Invalid parameters or unknown source id"),
    }),
  },
);
