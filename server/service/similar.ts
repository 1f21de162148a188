/**
 * Assets related to one asset, as every surface reads them (`GET /v1/assets/{id}/similar`, the MCP
 * tool `similar_assets`): the id checked as for its details, then core/search/similar.ts over the
 * index. Similarity covers the indexed sources: an asset the index does not hold is a 404 that says
 * why, and no source is asked.
 */
import type { SimilarParams } from "../../core/model/similar-params.ts";
import type { SimilarResponse } from "../../core/schemas/index.ts";
import { similarAssets } from "../../core/search/similar.ts";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";
import { parseAssetId } from "./assets.ts";

export function findSimilar(rawId: string, params: SimilarParams, deps: AppDeps): SimilarResponse {
  const ref = parseAssetId(rawId, deps);
  const found = similarAssets(deps.published.index, deps.sources, ref.id, { limit: params.limit, type: params.type });
  if (found) return found;
  if (ref.source.mode !== "indexed") {
    throw new ApiError(404, `no similar assets for '${ref.id}': similarity covers the indexed sources, and ${ref.source.name} is searched on its own site`);
  }
  throw new ApiError(404, `unknown asset '${ref.id}': the index does not hold it`);
}
