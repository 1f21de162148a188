/**
 * One asset, as every surface reads it: its id parsed and checked, and its details from its
 * source under one deadline. Used by the HTTP routes of `/v1/assets/{id}`, by the delivery
 * (server/service/delivery.ts), the credits, the thumbnails and the pages' meta, and so by MCP and
 * the command line.
 */
import type { Source } from "../../core/model/source.ts";
import { SourceError, toSourceError } from "../../core/model/source-error.ts";
import type { AssetDetails } from "../../core/schemas/index.ts";
import { timeBox } from "../../core/time-box.ts";
import type { AppDeps } from "../context.ts";
import { ApiError, sourceFailure } from "../errors.ts";

export interface AssetRef {
  id: string;
  source: Source;
  nativeId: string;
}

/**
 * A nativeId that would change which upstream resource a source's URL names: a `.` or `..` path
 * segment (also as `%2e`, which URL parsers resolve the same way), a query or fragment, or a
 * control character. Sources put the nativeId into their URLs, so such an id could climb to
 * another endpoint of the site.
 */
function unsafeNativeId(nativeId: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses in ids.
  if (/[?#\u0000-\u001f\u007f]/.test(nativeId)) return "it holds '?', '#' or a control character";
  const dotSegment = nativeId.split(/[/\\]/).some((seg) => /^(\.|%2e){1,2}$/i.test(seg));
  return dotSegment ? "'.' and '..' are not asset ids" : undefined;
}

/** Parses `<provider>:<nativeId>` (URL-encoded or not): malformed → 400, unknown source → 404. */
export function parseAssetId(raw: string, deps: AppDeps): AssetRef {
  let id: string;
  try {
    id = decodeURIComponent(raw);
  } catch {
    throw new ApiError(400, `malformed asset id '${raw}': bad percent-encoding`);
  }
  const m = /^([a-z0-9][a-z0-9-]*):(.+)$/.exec(id);
  const [, sourceId, nativeId] = m ?? [];
  if (sourceId === undefined || nativeId === undefined || id.length > 300) {
    throw new ApiError(400, `malformed asset id '${id}': expected <provider>:<nativeId>`);
  }
  const source = deps.sources.find((s) => s.id === sourceId);
  if (!source) throw new ApiError(404, `unknown asset '${id}': no source '${sourceId}'`);
  const unsafe = unsafeNativeId(nativeId);
  if (unsafe) throw new ApiError(400, `malformed asset id '${id}': ${unsafe}`);
  return { id, source, nativeId };
}

/** Where details are fetched for: the caller's abort signal and the base URL of the links handed out. */
export interface DetailsContext {
  signal?: AbortSignal;
  baseUrl: string;
}

/**
 * `ask` given a signal that aborts with `outer` or at the deadline; past the deadline a timeout
 * of `source`, even when `ask` ignores its signal.
 */
async function withinDeadline<T>(ms: number, source: string, outer: AbortSignal | undefined, ask: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const box = timeBox(ms, outer);
  const late = new Promise<never>((_, reject) =>
    box.signal.addEventListener("abort", () => reject(outer?.aborted ? outer.reason : new SourceError(source, "timeout", `no answer within ${ms} ms`)), {
      once: true,
    }),
  );
  try {
    return await Promise.race([ask(box.signal), late]);
  } finally {
    box.dispose();
  }
}

/**
 * The asset's details from its source, live (cached by the client), within DETAILS_DEADLINE_MS on
 * every surface: 404 unknown, 503 when this server lacks the key the source needs (the site did not
 * fail), else the source's failure as server/errors.ts maps it (502, or 504 past the deadline).
 * A source says an asset is gone by answering null (sources/kit/fetch.ts: unlessGone); anything it
 * throws is a failure.
 */
export async function fetchDetails(ref: AssetRef, deps: AppDeps, at: DetailsContext): Promise<AssetDetails> {
  const { getAsset } = ref.source;
  if (!getAsset) {
    throw new ApiError(404, `unknown asset '${ref.id}': ${ref.source.name} is searched on its own site only`);
  }
  const key = ref.source.key;
  if (key?.required && !deps.runtime.config.keys[key.env]) {
    throw new ApiError(503, `${ref.source.name} is not configured on this server: set ${key.env} to enable it`);
  }
  let details: AssetDetails | null;
  try {
    details = await withinDeadline(deps.runtime.config.detailsDeadlineMs, ref.source.id, at.signal, (signal) =>
      getAsset(ref.nativeId, deps.runtime.context(signal)),
    );
  } catch (err) {
    throw sourceFailure(toSourceError(ref.source.id, err));
  }
  if (!details) throw new ApiError(404, `unknown asset '${ref.id}'`);
  return { ...details, shareUrl: `${at.baseUrl}/?asset=${encodeURIComponent(details.id)}` };
}
