import type { AssetDetails, AssetFile } from "../../core/schemas/index.ts";
import type { AssetRef } from "./assets.ts";

/** How a selection is delivered: the source's page only, nothing matching, one redirect, or a zip. */
export type Delivery = { kind: "page" } | { kind: "none" } | { kind: "redirect"; file: AssetFile } | { kind: "zip"; files: AssetFile[] };

/** The delivery rule of `/download`, which the MCP `get_asset` tool describes; files behind a login never count. */
export function deliveryOf(ref: AssetRef, details: AssetDetails, files: AssetFile[]): Delivery {
  if (!ref.source.supportsDownload || !details.downloadable) return { kind: "page" };
  const direct = files.filter((f) => !f.requiresAuth);
  const [only] = direct;
  if (!only) return { kind: "none" };
  if (direct.length === 1 && !only.includes?.length) return { kind: "redirect", file: only };
  return { kind: "zip", files: direct };
}
