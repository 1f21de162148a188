/**
 * How one asset's selection is delivered, decided once for every surface: `/download` answers it
 * (302, zip, 404, 409, 413), `/files` and `/raw` answer with its selection, the MCP tool
 * `get_asset` describes it (in the same words: "no file matches" as its error, the cap as a note),
 * `/v1/download` puts its plan in a kit, and `asset-search get` and `download_asset`
 * (server/project/) write it. Files behind a login are never delivered.
 */
import { selectFiles } from "../../core/model/selection.ts";
import type { Source } from "../../core/model/source.ts";
import type { AssetDetails, AssetFile, FileParams, FileSelection } from "../../core/schemas/index.ts";
import type { AppDeps } from "../context.ts";
import { planZip, type ZipPlan } from "../download/zip.ts";
import { ApiError } from "../errors.ts";
import { type AssetRef, type DetailsContext, fetchDetails } from "./assets.ts";

/** No deliverable file of the asset matches the asked format, resolution and maps. */
export class NoFileMatches extends ApiError {
  /** What the asset has instead, for a caller that can ask again. */
  readonly offered: string;

  constructor(details: AssetDetails) {
    super(404, `no file of '${details.id}' matches the requested format, resolution and maps`);
    const formats = details.formats?.length ? details.formats.join(", ") : "none listed";
    const resolutions = details.resolutions?.length ? `; resolutions ${details.resolutions.join(", ")}` : "";
    this.offered = `formats ${formats}${resolutions}`;
  }
}

/** The files a delivery hands out and their layout, whose total is the one size rule. */
interface Deliverable {
  files: AssetFile[];
  plan: ZipPlan;
}

export type Delivery =
  /** The source has no direct downloads: the asset's page only (409). */
  | { kind: "page"; error: ApiError }
  /** Nothing deliverable matches (404). */
  | { kind: "none"; error: NoFileMatches }
  /** One self-contained file: straight from the source (302). */
  | ({ kind: "redirect"; file: AssetFile } & Deliverable)
  /** Several files, or one with companions: one zip streamed by this server. */
  | ({ kind: "zip" } & Deliverable)
  /** A zip whose known size passes DOWNLOAD_MAX_BYTES (413). */
  | ({ kind: "too-large"; error: ApiError } & Deliverable);

/** The one cap check: the error a selection of `totalBytes` gets past `maxBytes`, if any (an unknown size is cut while streaming). */
export function overTheCap(totalBytes: number | undefined, maxBytes: number): ApiError | undefined {
  if (totalBytes === undefined || totalBytes <= maxBytes) return undefined;
  return new ApiError(413, `the selection is ${totalBytes} bytes, over this server's cap of ${maxBytes} bytes; pick a lower resolution or fewer files`);
}

/**
 * The delivery of `files`, the selection of `details`. Only the source's name and
 * `supportsDownload` are read, so a command line that asks a running server passes what
 * `/v1/providers` says of it.
 */
export function deliveryOf(source: Pick<Source, "name" | "supportsDownload">, details: AssetDetails, files: AssetFile[], maxBytes: number): Delivery {
  if (!source.supportsDownload || !details.downloadable) {
    const error = new ApiError(409, `${source.name} has no direct downloads for '${details.id}'; get it on the asset's page: ${details.url}`, {
      url: details.url,
    });
    return { kind: "page", error };
  }
  const direct = files.filter((f) => !f.requiresAuth);
  const [only] = direct;
  if (!only) return { kind: "none", error: new NoFileMatches(details) };
  const plan = planZip(details, direct);
  // The source serves a lone file itself: none of its bytes pass through this server, so no cap.
  if (direct.length === 1 && !only.includes?.length) return { kind: "redirect", file: only, files: direct, plan };
  const tooLarge = overTheCap(plan.totalBytes, maxBytes);
  return tooLarge ? { kind: "too-large", error: tooLarge, files: direct, plan } : { kind: "zip", files: direct, plan };
}

/**
 * The FileSelection of `/files`, which `get_asset` also answers with. Its total is the zip's
 * (planZip): the bytes a download carries, a companion shared by several files counted once.
 */
export function fileSelection(details: AssetDetails, files: AssetFile[]): FileSelection {
  const total = planZip(details, files).totalBytes;
  return {
    id: details.id,
    ...(details.license ? { license: details.license } : {}),
    ...(total !== undefined ? { totalBytes: total } : {}),
    files,
  };
}

export interface Decision {
  details: AssetDetails;
  /** The files `params` choose (with `all`, those behind a login too) and their total. */
  selection: FileSelection;
  delivery: Delivery;
}

/** The asset's details (under the one deadline of server/service/assets.ts), the files `params` choose, and their delivery. */
export async function decideDelivery(ref: AssetRef, params: FileParams, deps: AppDeps, at: DetailsContext): Promise<Decision> {
  const details = await fetchDetails(ref, deps, at);
  const files = selectFiles(details, params);
  return { details, selection: fileSelection(details, files), delivery: deliveryOf(ref.source, details, files, deps.runtime.config.downloadMaxBytes) };
}
