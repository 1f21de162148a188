/**
 * One asset, as every surface reads it: its id parsed and checked, its details from its source,
 * and the files chosen for a format, resolution and maps. Used by the HTTP routes `/v1/assets/{id}`,
 * `/files` and `/download` and by the MCP tool `get_asset` (server/mcp/tools.ts).
 */
import { UpstreamError } from "../../core/http/types.ts";
import { selectFiles } from "../../core/model/selection.ts";
import type { Source } from "../../core/model/source.ts";
import type { AssetDetails, AssetFile, FileParams, FileSelection } from "../../core/schemas/index.ts";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";

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

/** The asset's details and the files `params` choose of them. */
export async function selectAsset(
  ref: AssetRef,
  params: FileParams,
  deps: AppDeps,
  at: DetailsContext,
): Promise<{ details: AssetDetails; files: AssetFile[] }> {
  const details = await fetchDetails(ref, deps, at);
  return { details, files: selectFiles(details, params) };
}

/** The files' total size, when every file and companion states its own. */
function totalBytes(files: AssetFile[]): number | undefined {
  let total = 0;
  for (const f of files) {
    const parts = [f.sizeBytes, ...(f.includes ?? []).map((i) => i.sizeBytes)];
    if (parts.some((p) => p === undefined)) return undefined;
    total += parts.reduce<number>((a, b) => a + (b ?? 0), 0);
  }
  return total;
}

/** The FileSelection of `/files`, which `get_asset` also answers with. */
export function fileSelection(details: AssetDetails, files: AssetFile[]): FileSelection {
  const total = totalBytes(files);
  return {
    id: details.id,
    ...(details.license ? { license: details.license } : {}),
    ...(total !== undefined ? { totalBytes: total } : {}),
    files,
  };
}
