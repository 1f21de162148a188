/** `GET /v1/assets/{id}/similar`: related assets of the indexed sources, each with why (server/service/similar.ts). */
import { SimilarParams } from "../../core/model/similar-params.ts";
import { errorResponse, jsonResponse, queryParameters, rateLimitedResponses } from "../openapi.ts";
import { parseQuery } from "../query.ts";
import { findSimilar } from "../service/similar.ts";
import { ASSET_ID } from "./assets.ts";
import { API, get } from "./route.ts";

export const similarRoute = get("/v1/assets/{id}/similar", API, (deps) => (event, id) => findSimilar(id, parseQuery(event, SimilarParams), deps), {
  operationId: "similarAssets",
  tags: ["Assets"],
  summary: "Related assets, each with why",
  description:
    "Assets of every indexed source related to this one, best first, each with its `score` (0..1) and its `reasons`: the same series (titles that differ by a number or a variant), " +
    "a shared author, shared categories, shared tags, or the same subject (a title word in the other's title, tags or categories). Computed from the index alone, without asking any source; " +
    "the asset itself and its listings on other sources are left out. Only assets of the indexed sources have similar assets: another is a 404 that says so.",
  parameters: [ASSET_ID, ...queryParameters(SimilarParams)],
  responses: rateLimitedResponses({
    200: jsonResponse("Related assets, best first, each with its reasons", "SimilarResponse"),
    400: errorResponse("Invalid parameters, or a malformed asset id (as for `/v1/assets/{id}`)"),
    404: errorResponse("Unknown asset, or an asset of a source that is not indexed (searched on its own site): the message says which"),
  }),
});
