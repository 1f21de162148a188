import type { Source } from "../../core/model/source.ts";
import type { AssetDetails, AssetFile } from "../../core/schemas/index.ts";

/** How a selection is delivered: the source's page only, nothing matching, one redirect, or a zip. */
export type Delivery = { kind: "page" } | { kind: "none" } | { kind: "redirect"; file: AssetFile } | { kind: "zip"; files: AssetFile[] };

/**
 * The delivery rule of `/download`, which the MCP `get_asset` tool describes and `asset-search get`
 * follows; files behind a login never count. Only the source's `supportsDownload` is read, so a
 * command line that asks a running server passes what `/v1/providers` says of it.
 */
export function deliveryOf(ref: { source: Pick<Source, "supportsDownload"> }, details: AssetDetails, files: AssetFile[]): Delivery {
  if (!ref.source.supportsDownload || !details.downloadable) return { kind: "page" };
  const direct = files.filter((f) => !f.requiresAuth);
  const [only] = direct;
  if (!only) return { kind: "none" };
  if (direct.length === 1 && !only.includes?.length) return { kind: "redirect", file: only };
  return { kind: "zip", files: direct };
}
