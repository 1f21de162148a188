import { Readable } from "node:stream";
import type { H3Event } from "h3";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";
import { creditsText, planZip, streamZip } from "../download/zip.ts";
import { deliveryOf } from "../service/delivery.ts";
import { requestedSelection } from "./assets.ts";

/**
 * GET /v1/assets/{id}/download: one self-contained file → 302 to the source; several files, or a
 * file with companions → a streamed zip. Files behind a login are never delivered.
 */
export async function downloadRoute(event: H3Event, deps: AppDeps, rawId: string): Promise<Response> {
  const { ref, details, files } = await requestedSelection(event, deps, rawId);
  const delivery = deliveryOf(ref, details, files);
  if (delivery.kind === "page") {
    throw new ApiError(409, `${ref.source.name} has no direct downloads for '${details.id}'; get it on the asset's page`, { url: details.url });
  }
  if (delivery.kind === "none") throw new ApiError(404, `no file of '${details.id}' matches the requested format, resolution and maps`);
  if (delivery.kind === "redirect") {
    return new Response(null, { status: 302, headers: { location: delivery.file.url } });
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
