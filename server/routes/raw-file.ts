/**
 * `GET /v1/assets/{id}/raw/{path}`: one file of a selection, at its path in the zip's layout, for
 * the previews before download. The browser loads a glTF from here and its `.bin` and textures by
 * their relative URIs with the same query, so they land here too.
 */
import { Readable } from "node:stream";
import type { H3Event } from "h3";
import type { AppDeps } from "../context.ts";
import { capped, previewType, safeFilename } from "../download/raw-file.ts";
import { planZip } from "../download/zip.ts";
import { ApiError } from "../errors.ts";
import { errorResponse, rateLimitedResponses } from "../openapi.ts";
import { counted } from "../stats/hooks.ts";
import { ASSET_ID, BAD_PARAMS, FILE_PARAMETERS, NOT_CONFIGURED, requestedDelivery, SOURCE_FAILED, SOURCE_SLOW } from "./assets.ts";
import { API, get } from "./route.ts";

/** An hour: the same path and query name the same upstream file, which sources seldom replace. */
const RAW_CACHE = "public, max-age=3600";
/** Should upstream bytes be opened as a page (an SVG, say), they run nothing and reach nothing. */
const RAW_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** The `{path}` as sent, decoded segment by segment. */
function filePath(raw: string): string {
  try {
    return raw.split("/").map(decodeURIComponent).join("/");
  } catch {
    throw new ApiError(400, `malformed file path '${raw}': bad percent-encoding`);
  }
}

/**
 * The file at `path` of the selection the query chooses (as for `/files` and `/download`), laid
 * out as the zip lays it out. A source without direct downloads, or a file behind a login, is a
 * 409 with the asset's page; a path the layout does not hold a 404; a known size over
 * PREVIEW_MAX_BYTES a 413 before anything is fetched.
 */
async function rawFile(event: H3Event, deps: AppDeps, rawId: string, rawPath: string): Promise<Response> {
  const path = filePath(rawPath);
  const { ref, details, selection, delivery } = await requestedDelivery(event, deps, rawId);
  if (delivery.kind === "page") throw delivery.error;
  // A selection over the download cap is still previewed file by file, under the preview cap.
  const entry = delivery.kind === "none" ? undefined : delivery.plan.entries.find((e) => e.path === path);
  if (!entry) {
    if (
      planZip(
        details,
        selection.files.filter((f) => f.requiresAuth),
      ).entries.some((e) => e.path === path)
    ) {
      throw new ApiError(409, `'${path}' of '${details.id}' needs a login on ${ref.source.name}; get it on the asset's page`, { url: details.url });
    }
    throw new ApiError(404, `no file '${path}' in the selection of '${details.id}' for this format, resolution and maps; /files lists the selection`);
  }
  const max = deps.runtime.config.previewMaxBytes;
  const tooLarge = (bytes: number) => new ApiError(413, `'${path}' is ${bytes} bytes, over this server's preview cap of ${max} bytes`);
  if (entry.sizeBytes !== undefined && entry.sizeBytes > max) throw tooLarge(entry.sizeBytes);
  const upstream = await deps.runtime.http.stream(entry.url, { signal: event.req.signal });
  if (upstream.sizeBytes !== undefined && upstream.sizeBytes > max) {
    upstream.body.once("error", () => {}).destroy(); // its abort error is the one expected
    throw tooLarge(upstream.sizeBytes);
  }
  return new Response(Readable.toWeb(capped(upstream.body, max)) as ReadableStream, {
    status: 200,
    headers: {
      "content-type": previewType(path, upstream.headers["content-type"]),
      ...(upstream.sizeBytes !== undefined ? { "content-length": String(upstream.sizeBytes) } : {}),
      "content-disposition": `inline; filename="${safeFilename(path)}"`,
      "content-security-policy": RAW_CSP,
      "cache-control": RAW_CACHE,
    },
  });
}

export const rawFileRoute = get(
  "/v1/assets/{id}/raw/{path}",
  API,
  (deps) => (event, id, path) => counted(event, rawFile(event, deps, id, path), () => deps.usage.preview()),
  {
    operationId: "getAssetRawFile",
    tags: ["Assets"],
    summary: "One file of the selection, for a preview",
    description:
      "The selection is the one `/files` and `/download` make for the same query. `path` is the file's path in the zip's layout: a selected file at the root, " +
      "its companions at their relative paths (`ArmChair_01_2k.gltf`, `ArmChair_01.bin`, `textures/Armchair_01_diff_2k.jpg`), so a glTF loaded from here " +
      "finds its buffers and textures by their relative URIs when they are asked for with the same query. An id holding `/raw/` must encode its slashes. " +
      "Streamed from the source through the address guard, with the media type of the file's extension, `X-Content-Type-Options: nosniff`, " +
      "`Content-Disposition: inline` and a sandboxing Content-Security-Policy; cut if it passes `PREVIEW_MAX_BYTES`. Counted as a preview, not a download.",
    parameters: [
      ASSET_ID,
      {
        name: "path",
        in: "path",
        required: true,
        description: "The file's path in the zip's layout, percent-encoded per segment (it may hold slashes).",
        schema: { type: "string" },
        example: "textures/Armchair_01_diff_2k.jpg",
      },
      ...FILE_PARAMETERS,
    ],
    responses: rateLimitedResponses({
      200: {
        description: "The file's bytes, labelled by its extension (model/gltf+json, model/gltf-binary, image/*, audio/*, font/* …)",
        content: { "*/*": { schema: { type: "string", format: "binary" } } },
      },
      400: BAD_PARAMS,
      404: errorResponse("Unknown asset, or no file at this path in the selection"),
      409: errorResponse("The source has no direct downloads, or the file needs a login there; `url` is the asset's page on the source"),
      413: errorResponse("The file is larger than the server's preview cap (PREVIEW_MAX_BYTES)"),
      502: SOURCE_FAILED,
      503: NOT_CONFIGURED,
      504: SOURCE_SLOW,
    }),
  },
);
