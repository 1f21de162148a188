/**
 * `GET /v1/download`: several assets in one streamed zip, each in its folder as
 * `/v1/assets/{id}/download` lays it out, and one CREDITS.txt for all of them (core/model/credits.ts,
 * the text of `/v1/credits?format=txt`). The same size cap (over the whole zip), address guard and
 * rate limit as one asset's download; every asset is checked before the first byte.
 */
import { Readable } from "node:stream";
import type { H3Event } from "h3";
import pLimit from "p-limit";
import { writeCredits } from "../../core/model/credits.ts";
import { type FileParams, KitQuery } from "../../core/schemas/index.ts";
import { type AppDeps, publicBase } from "../context.ts";
import { streamKit, type ZipPlan } from "../download/zip.ts";
import { ApiError } from "../errors.ts";
import { requestIdOf } from "../middleware/request-log.ts";
import { errorResponse, queryParameters, rateLimitedResponses } from "../openapi.ts";
import { parseParams, parseQuery } from "../query.ts";
import { parseAssetId } from "../service/assets.ts";
import { decideDelivery } from "../service/delivery.ts";
import { counted } from "../stats/hooks.ts";
import { NOT_CONFIGURED, SOURCE_FAILED, SOURCE_SLOW } from "./assets.ts";
import { API, get } from "./route.ts";

/** Sources asked at once for the details of one kit. */
const CONCURRENCY = 6;

async function downloadKit(event: H3Event, deps: AppDeps): Promise<Response> {
  const { ids: items, ...defaults } = parseQuery(event, KitQuery);
  // Every id and its options checked before any source is asked.
  const wanted = items.map((item) => {
    const ref = parseAssetId(item.id, deps);
    const own = Object.keys(item.params).length ? parseParams(item.params, KitQuery.omit({ ids: true })) : undefined;
    return { ref, params: (own ?? defaults) as FileParams };
  });
  const at = { signal: event.req.signal, baseUrl: publicBase(deps, event) };
  const limit = pLimit(CONCURRENCY);
  const chosen = await Promise.all(wanted.map(({ ref, params }) => limit(() => decideDelivery(ref, params, deps, at))));
  const plans: ZipPlan[] = [];
  // Each asset's decision, but one zip for all: a lone file is zipped too, and the cap is over the whole kit.
  for (const { delivery } of chosen) {
    if (delivery.kind === "page" || delivery.kind === "none") throw delivery.error;
    plans.push(delivery.plan);
  }
  const folders = new Set(plans.map((p) => p.folder));
  if (folders.size < plans.length) throw new ApiError(400, "ids names the same asset twice");
  const max = deps.runtime.config.downloadMaxBytes;
  const sizes = plans.map((p) => p.totalBytes);
  const total = sizes.every((s) => s !== undefined) ? sizes.reduce<number>((a, b) => a + (b ?? 0), 0) : undefined;
  if (total !== undefined && total > max) {
    throw new ApiError(413, `the assets are ${total} bytes together, over this server's cap of ${max} bytes; pick lower resolutions or fewer assets`);
  }
  const credits = writeCredits(
    chosen.map(({ details }) => details),
    "txt",
  ) as string;
  const zip = streamKit(plans, credits, {
    http: deps.runtime.http,
    maxBytes: max,
    signal: event.req.signal,
    metrics: deps.usage.metrics,
    log: deps.log?.child({ requestId: requestIdOf(event) }),
  });
  return new Response(Readable.toWeb(zip) as ReadableStream, {
    status: 200,
    headers: { "content-type": "application/zip", "content-disposition": 'attachment; filename="assets.zip"' },
  });
}

export const kitRoute = get("/v1/download", API, (deps) => (event) => counted(event, downloadKit(event, deps), () => deps.usage.download()), {
  operationId: "downloadAssets",
  tags: ["Assets"],
  summary: "Download several assets in one zip",
  description:
    "Each asset in its own folder (`<provider>-<slug>/`, the layout of `/v1/assets/{id}/download`) and one `CREDITS.txt` at the root " +
    "with the credits of all of them (the text of `/v1/credits?format=txt`). Each id takes its own `;format=…;resolution=…;maps=…;all=…` " +
    "options, or the request's `format`, `resolution`, `maps` and `all`. The size cap applies to the whole zip.",
  parameters: queryParameters(KitQuery),
  responses: rateLimitedResponses({
    200: { description: "Zip archive of the assets", content: { "application/zip": { schema: { type: "string", format: "binary" } } } },
    400: errorResponse("Invalid parameters, a malformed asset id, an unknown option of an id, or the same asset twice"),
    404: errorResponse("An unknown asset, or no file of one matches its format/resolution"),
    409: errorResponse("A source has no direct downloads for one of the assets; `url` is its page"),
    413: errorResponse("The zip would exceed the server's size cap (DOWNLOAD_MAX_BYTES)"),
    502: SOURCE_FAILED,
    503: NOT_CONFIGURED,
    504: SOURCE_SLOW,
  }),
});
