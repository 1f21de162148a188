import type { H3Event } from "h3";
import { FileParams, type AssetDetails, type FileSelection } from "../../core/schemas/index.ts";
import { publicBase, type AppDeps } from "../context.ts";
import { parseQuery } from "../query.ts";
import { fetchDetails, fileSelection, parseAssetId, selectAsset, type DetailsContext } from "../service/assets.ts";

/** Details for a request: its signal, and this server's public base URL for the links. */
const detailsFor = (event: H3Event, deps: AppDeps): DetailsContext => ({ signal: event.req.signal, baseUrl: publicBase(deps, event) });

/** GET /v1/assets/{id} */
export async function assetRoute(event: H3Event, deps: AppDeps, rawId: string): Promise<AssetDetails> {
  return fetchDetails(parseAssetId(rawId, deps), deps, detailsFor(event, deps));
}

/** The selection of `/files` and `/download`: the id checked, the query validated, then the details and the chosen files. */
export async function requestedSelection(event: H3Event, deps: AppDeps, rawId: string) {
  const ref = parseAssetId(rawId, deps);
  const params = parseQuery(event, FileParams);
  return { ref, ...(await selectAsset(ref, params, deps, detailsFor(event, deps))) };
}

/** GET /v1/assets/{id}/files */
export async function filesRoute(event: H3Event, deps: AppDeps, rawId: string): Promise<FileSelection> {
  const { details, files } = await requestedSelection(event, deps, rawId);
  return fileSelection(details, files);
}
