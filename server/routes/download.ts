import { Readable } from "node:stream";
import type { H3Event } from "h3";
import { type AppDeps, publicBase } from "../context.ts";
import { creditsText, streamZip } from "../download/zip.ts";
import { requestIdOf } from "../middleware/request-log.ts";
import { errorResponse, rateLimitedResponses } from "../openapi.ts";
import { counted } from "../stats/hooks.ts";
import { ASSET_ID, BAD_PARAMS, FILE_PARAMETERS, NOT_CONFIGURED, requestedDelivery, SOURCE_FAILED, SOURCE_SLOW } from "./assets.ts";
import { API, get } from "./route.ts";

/**
 * The delivery decision (server/service/delivery.ts) as HTTP answers it: one self-contained file →
 * 302 to the source; several files, or a file with companions → a streamed zip; else its error
 * (404 no file matches, 409 no direct downloads, 413 over the cap).
 */
async function download(event: H3Event, deps: AppDeps, rawId: string): Promise<Response> {
  const { details, delivery } = await requestedDelivery(event, deps, rawId);
  if (delivery.kind === "page" || delivery.kind === "none" || delivery.kind === "too-large") throw delivery.error;
  if (delivery.kind === "redirect") {
    // The file's credit travels with it: a link to the credits of this asset (GET /v1/credits).
    const credits = `${publicBase(deps, event)}/v1/credits?ids=${encodeURIComponent(details.id)}&format=txt`;
    return new Response(null, { status: 302, headers: { location: delivery.file.url, link: `<${credits}>; rel="license"; type="text/plain"` } });
  }
  const { plan, files } = delivery;
  const zip = streamZip(plan, creditsText(details, files), {
    http: deps.runtime.http,
    maxBytes: deps.runtime.config.downloadMaxBytes,
    signal: event.req.signal,
    metrics: deps.usage.metrics,
    log: deps.log?.child({ requestId: requestIdOf(event) }),
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
      504: SOURCE_SLOW,
    }),
  },
);
