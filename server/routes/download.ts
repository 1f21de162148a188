import { Readable } from "node:stream";
import type { H3Event } from "h3";
import { type AppDeps, publicBase } from "../context.ts";
import { creditsText, planZip, streamZip } from "../download/zip.ts";
import { ApiError } from "../errors.ts";
import { errorResponse, rateLimitedResponses } from "../openapi.ts";
import { deliveryOf } from "../service/delivery.ts";
import { counted } from "../stats/hooks.ts";
import { ASSET_ID, BAD_PARAMS, FILE_PARAMETERS, NOT_CONFIGURED, requestedSelection, SOURCE_FAILED } from "./assets.ts";
import { API, get } from "./route.ts";

/**
 * One self-contained file → 302 to the source; several files, or a file with companions → a
 * streamed zip. Files behind a login are never delivered.
 */
async function download(event: H3Event, deps: AppDeps, rawId: string): Promise<Response> {
  const { ref, details, files } = await requestedSelection(event, deps, rawId);
  const delivery = deliveryOf(ref, details, files);
  if (delivery.kind === "page") {
    throw new ApiError(409, `${ref.source.name} has no direct downloads for '${details.id}'; get it on the asset's page`, { url: details.url });
  }
  if (delivery.kind === "none") throw new ApiError(404, `no file of '${details.id}' matches the requested format, resolution and maps`);
  if (delivery.kind === "redirect") {
    // The file's credit travels with it: a link to the credits of this asset (GET /v1/credits).
    const credits = `${publicBase(deps, event)}/v1/credits?ids=${encodeURIComponent(details.id)}&format=txt`;
    return new Response(null, { status: 302, headers: { location: delivery.file.url, link: `<${credits}>; rel="license"; type="text/plain"` } });
  }
  const direct = delivery.files;
  const plan = planZip(details, direct);
  const max = deps.runtime.config.downloadMaxBytes;
  if (plan.totalBytes !== undefined && plan.totalBytes > max) {
    throw new ApiError(413, `the selection is ${plan.totalBytes} bytes, over this server's cap of ${max} bytes; pick a lower resolution or fewer files`);
  }
  const zip = streamZip(plan, creditsText(details, direct), {
    http: deps.runtime.http,
    maxBytes: max,
    signal: event.req.signal,
    metrics: deps.usage.metrics,
  });
  return new Response(Readable.toWeb(zip) as ReadableStream, {
    status: 200,
    headers: {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${plan.folder}.zip"`,
    },
  });
}

export const downloadRoute = get(
  "/v1/assets/{id}/download",
  API,
  (deps) => (event, id) => counted(event, download(event, deps, id), () => deps.usage.download()),
  {
    operationId: "downloadAsset",
    tags: ["Assets"],
    summary: "Download the selected files",
    description:
      "Same selection as `/files`. A single self-contained file is a 302 to the source's content server; several files are streamed as one zip with a ready-to-use folder layout and a licence file.",
    parameters: [ASSET_ID, ...FILE_PARAMETERS],
    responses: rateLimitedResponses({
      200: {
        description: "Zip archive of the selection",
        content: { "application/zip": { schema: { type: "string", format: "binary" } } },
      },
      302: {
        description: "A single self-contained file: redirect to the source's content server",
        headers: {
          Location: { description: "URL of the file on the source's content server", schema: { type: "string", format: "uri" } },
          Link: {
            description: 'The credits of the asset: `<…/v1/credits?ids=<id>&format=txt>; rel="license"; type="text/plain"`',
            schema: { type: "string" },
          },
        },
      },
      400: BAD_PARAMS,
      404: errorResponse("Unknown asset, or no file matches the format/resolution"),
      409: errorResponse("The source has no direct downloads; `url` is the asset's page on the source"),
      413: errorResponse("The zip would exceed the server's size cap (DOWNLOAD_MAX_BYTES)"),
      502: SOURCE_FAILED,
      503: NOT_CONFIGURED,
    }),
  },
);
