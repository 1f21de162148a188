/** `GET /v1/assets/{id}` and `/files`, and what `/download` and `/raw` (server/routes/download.ts, raw-file.ts) share with them. */
import type { H3Event } from "h3";
import { type AssetDetails, FileParams } from "../../core/schemas/index.ts";
import { type AppDeps, publicBase } from "../context.ts";
import { errorResponse, jsonResponse, queryParameters, rateLimitedResponses } from "../openapi.ts";
import { parseQuery } from "../query.ts";
import { type DetailsContext, fetchDetails, parseAssetId } from "../service/assets.ts";
import { decideDelivery } from "../service/delivery.ts";
import { counted } from "../stats/hooks.ts";
import { API, get } from "./route.ts";

/** Details for a request: its signal, and this server's public base URL for the links. */
const detailsFor = (event: H3Event, deps: AppDeps): DetailsContext => ({ signal: event.req.signal, baseUrl: publicBase(deps, event) });

async function assetDetails(event: H3Event, deps: AppDeps, rawId: string): Promise<AssetDetails> {
  return fetchDetails(parseAssetId(rawId, deps), deps, detailsFor(event, deps));
}

/** The delivery decision of `/files`, `/download` and `/raw`: the id checked, the query validated, then server/service/delivery.ts decides. */
export async function requestedDelivery(event: H3Event, deps: AppDeps, rawId: string) {
  const ref = parseAssetId(rawId, deps);
  const params = parseQuery(event, FileParams);
  return { ref, ...(await decideDelivery(ref, params, deps, detailsFor(event, deps))) };
}

// OpenAPI: the id and the answers the three asset routes share.
export const ASSET_ID = {
  name: "id",
  in: "path",
  required: true,
  description: "Asset id `<provider>:<nativeId>`, URL-encoded (the colon may stay unencoded).",
  schema: { type: "string" },
  example: "polyhaven:rock_wall_08",
};
export const FILE_PARAMETERS = queryParameters(FileParams);
export const BAD_PARAMS = errorResponse("Invalid parameters, or a malformed asset id (as for `/v1/assets/{id}`)");
export const SOURCE_FAILED = errorResponse("The source site failed");
export const SOURCE_SLOW = errorResponse("The source site gave no answer within DETAILS_DEADLINE_MS");
export const NOT_CONFIGURED = errorResponse("The source needs a key this server does not have; the message names the environment variable to set");
const UNKNOWN_ASSET = errorResponse("Unknown asset");

export const assetRoute = get("/v1/assets/{id}", API, (deps) => (event, id) => counted(event, assetDetails(event, deps, id), () => deps.usage.assetView()), {
  operationId: "getAsset",
  tags: ["Assets"],
  summary: "Asset details, licence and files",
  description:
    "One asset by its id (`<provider>:<nativeId>`, as a search result gives it): its licence, author, previews and every downloadable file, from the index or asked of its source.",
  parameters: [ASSET_ID],
  responses: rateLimitedResponses({
    200: jsonResponse("The asset with its downloadable files", "AssetDetails"),
    400: errorResponse("Malformed asset id: not `<provider>:<nativeId>`, or a nativeId of `.`/`..` or holding `?`, `#` or control characters"),
    404: UNKNOWN_ASSET,
    502: SOURCE_FAILED,
    503: NOT_CONFIGURED,
    504: SOURCE_SLOW,
  }),
});

export const filesRoute = get(
  "/v1/assets/{id}/files",
  API,
  (deps) => async (event, id) => {
    const { selection } = await requestedDelivery(event, deps, id);
    return selection;
  },
  {
    operationId: "selectAssetFiles",
    tags: ["Assets"],
    summary: "Pick the files for a format and resolution",
    description: "The closest match to the preferred format and resolution wins; a glTF comes with its companion files, a texture set with one map per role.",
    parameters: [ASSET_ID, ...FILE_PARAMETERS],
    responses: rateLimitedResponses({
      200: jsonResponse("The selected files and their total size", "FileSelection"),
      400: BAD_PARAMS,
      404: UNKNOWN_ASSET,
      502: SOURCE_FAILED,
      503: NOT_CONFIGURED,
      504: SOURCE_SLOW,
    }),
  },
);
