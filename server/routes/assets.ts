import type { H3Event } from "h3";
import { selectFiles } from "../../core/selection.ts";
import { FileParams, type AssetDetails, type AssetFile, type FileSelection } from "../../core/schemas/index.ts";
import type { Source } from "../../core/source.ts";
import { UpstreamError } from "../../core/http/types.ts";
import { publicBase, type AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";
import { parseQuery } from "../query.ts";

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
  if (!m || id.length > 300) throw new ApiError(400, `malformed asset id '${id}': expected <provider>:<nativeId>`);
  const source = deps.sources.find((s) => s.id === m[1]);
  if (!source) throw new ApiError(404, `unknown asset '${id}': no source '${m[1]}'`);
  const unsafe = unsafeNativeId(m[2]!);
  if (unsafe) throw new ApiError(400, `malformed asset id '${id}': ${unsafe}`);
  return { id, source, nativeId: m[2]! };
}

/** Where details are fetched for: the caller's abort signal and the base URL of the links handed out. */
export interface DetailsContext {
  signal?: AbortSignal;
  baseUrl: string;
}

/**
 * The asset's details from its source, live (cached by the client); 404 unknown, 502 source
 * failure, 503 when this server lacks the key the source needs (the site did not fail).
 */
export async function fetchDetails(ref: AssetRef, deps: AppDeps, at: DetailsContext): Promise<AssetDetails> {
  if (!ref.source.getAsset) {
    throw new ApiError(404, `unknown asset '${ref.id}': ${ref.source.name} is searched on its own site only`);
  }
  const key = ref.source.key;
  if (key?.required && !deps.runtime.config.keys[key.env]) {
    throw new ApiError(503, `${ref.source.name} is not configured on this server: set ${key.env} to enable it`);
  }
  let details: AssetDetails | null;
  try {
    details = await ref.source.getAsset(ref.nativeId, deps.runtime.context(at.signal));
  } catch (err) {
    if (err instanceof UpstreamError && err.status === 404) details = null;
    else {
      const why = err instanceof Error ? err.message : String(err);
      throw new ApiError(502, `the source site failed: ${why}`);
    }
  }
  if (!details) throw new ApiError(404, `unknown asset '${ref.id}'`);
  return { ...details, shareUrl: `${at.baseUrl}/?asset=${encodeURIComponent(details.id)}` };
}

/** `fetchDetails` for a request: its signal, and this server's public base URL. */
export async function loadDetails(ref: AssetRef, deps: AppDeps, event: H3Event): Promise<AssetDetails> {
  return fetchDetails(ref, deps, { signal: event.req.signal, baseUrl: publicBase(deps, event) });
}

/** GET /v1/assets/{id} */
export async function assetRoute(event: H3Event, deps: AppDeps, rawId: string): Promise<AssetDetails> {
  return loadDetails(parseAssetId(rawId, deps), deps, event);
}

const totalBytes = (files: AssetFile[]): number | undefined => {
  let total = 0;
  for (const f of files) {
    const parts = [f.sizeBytes, ...(f.includes ?? []).map((i) => i.sizeBytes)];
    if (parts.some((p) => p === undefined)) return undefined;
    total += parts.reduce<number>((a, b) => a + (b ?? 0), 0);
  }
  return total;
};

/** The selection for `/files` and `/download`: details, validated parameters, chosen files. */
export async function selection(event: H3Event, deps: AppDeps, rawId: string) {
  const ref = parseAssetId(rawId, deps);
  const params = parseQuery(event, FileParams);
  const details = await loadDetails(ref, deps, event);
  const files = selectFiles(details, params);
  return { ref, details, params, files };
}

/** GET /v1/assets/{id}/files */
export async function filesRoute(event: H3Event, deps: AppDeps, rawId: string): Promise<FileSelection> {
  const { details, files } = await selection(event, deps, rawId);
  const total = totalBytes(files);
  return {
    id: details.id,
    ...(details.license ? { license: details.license } : {}),
    ...(total !== undefined ? { totalBytes: total } : {}),
    files,
  };
}

export { totalBytes };
