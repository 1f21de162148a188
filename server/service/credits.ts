/**
 * The credits of assets named by id: `GET /v1/credits` and the MCP tool `get_credits`. Each id's
 * details come from its source (as `/v1/assets/{id}`); the text is core/model/credits.ts's, the same
 * the command line writes from a lock.
 */
import pLimit from "p-limit";
import type { Creditable } from "../../core/model/credits.ts";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";
import { type DetailsContext, fetchDetails, parseAssetId } from "./assets.ts";

/** Sources asked at once for one request's ids. */
const CONCURRENCY = 6;

/**
 * The details of every id, in the order given. Ids that are malformed or unknown are all named in
 * one error (400 when any is malformed, else 404); a failing source is its own error (502, 503).
 */
export async function creditablesOf(ids: readonly string[], deps: AppDeps, at: DetailsContext): Promise<Creditable[]> {
  if (!ids.length) throw new ApiError(400, "ids is required: comma-separated asset ids (<provider>:<nativeId>)");
  const limit = pLimit(CONCURRENCY);
  const settled = await Promise.allSettled(ids.map((id) => limit(() => fetchDetails(parseAssetId(id, deps), deps, at))));
  const refused = settled.flatMap((r, i) =>
    r.status === "rejected" && r.reason instanceof ApiError && [400, 404].includes(r.reason.status) ? [{ id: ids[i]!, error: r.reason }] : [],
  );
  if (refused.length) {
    const status = refused.some((r) => r.error.status === 400) ? 400 : 404;
    throw new ApiError(status, `unknown or malformed asset ids: ${refused.map((r) => `'${r.id}' (${r.error.message})`).join(", ")}`);
  }
  return settled.map((r) => {
    if (r.status === "rejected") throw r.reason;
    const { id, title, url, author, license } = r.value;
    return { id, title, url, author, license };
  });
}
