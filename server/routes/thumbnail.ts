/** `GET /v1/assets/{id}/thumbnail`: the asset's thumbnail from this origin, resized, as WebP (server/service/thumbnails.ts). */

import { ThumbnailParams } from "../../core/schemas/index.ts";
import { publicBase } from "../context.ts";
import { errorResponse, queryParameters, rateLimitedResponses } from "../openapi.ts";
import { parseQuery } from "../query.ts";
import { parseAssetId } from "../service/assets.ts";
import { createThumbnails } from "../service/thumbnails.ts";
import { serveFile } from "../static/file.ts";
import { ASSET_ID } from "./assets.ts";
import { get, THUMBNAILS } from "./route.ts";

/** A week fresh, a day more while revalidating: a source rarely changes a thumbnail, and the ETag makes the check cheap. */
export const THUMBNAIL_CACHE = "public, max-age=604800, stale-while-revalidate=86400";
/** Five minutes: the source may have one by then, or answer again. */
export const PLACEHOLDER_CACHE = "public, max-age=300";
/** Says the answer is the placeholder (`placeholder`), not the asset's image. */
export const PLACEHOLDER_HEADER = "x-thumbnail";

export const thumbnailRoute = get(
  "/v1/assets/{id}/thumbnail",
  THUMBNAILS,
  (deps) => {
    const thumbnail = createThumbnails(deps);
    return async (event, id) => {
      const ref = parseAssetId(id, deps);
      const { w } = parseQuery(event, ThumbnailParams);
      const { file, outcome } = await thumbnail(ref, w, publicBase(deps, event));
      deps.usage.metrics.thumbnails.inc({ outcome });
      if (outcome === "placeholder") event.res.headers.set(PLACEHOLDER_HEADER, "placeholder");
      return serveFile(event, file, outcome === "placeholder" ? PLACEHOLDER_CACHE : THUMBNAIL_CACHE);
    };
  },
  {
    operationId: "getAssetThumbnail",
    tags: ["Assets"],
    summary: "The asset's thumbnail, resized, as WebP",
    description:
      "The source's thumbnail fetched by this server (never by the browser), fitted inside a square of `w` pixels (aspect kept, never enlarged) and encoded as WebP. " +
      "When the asset has no thumbnail, the source fails or refuses it, or it is no image, the answer is still a 200: a neutral placeholder tile, " +
      "with `X-Thumbnail: placeholder` and a short cache. Counted in a rate-limit bucket of its own, ten times `RATE_LIMIT_PER_MINUTE` " +
      "(a page of results asks for many at once), under the policy name `thumbnails`.",
    parameters: [ASSET_ID, ...queryParameters(ThumbnailParams)],
    responses: rateLimitedResponses({
      200: {
        description: "The thumbnail, or the placeholder",
        headers: {
          ETag: { description: "Strong validator: the sha256 of the WebP bytes.", schema: { type: "string" } },
          "Cache-Control": {
            description: `\`${THUMBNAIL_CACHE}\` for the thumbnail, \`${PLACEHOLDER_CACHE}\` for the placeholder.`,
            schema: { type: "string" },
          },
          "X-Thumbnail": { description: "`placeholder` when the answer is the placeholder; absent otherwise.", schema: { type: "string" } },
        },
        content: { "image/webp": { schema: { type: "string", format: "binary" } } },
      },
      304: { description: "Not modified: the If-None-Match of the request still holds; no body" },
      400: errorResponse("A `w` that is not one of the widths, or a malformed asset id (as for `/v1/assets/{id}`)"),
      404: errorResponse("Unknown source"),
    }),
  },
);
