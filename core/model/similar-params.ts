/**
 * The parameters of `GET /v1/assets/{id}/similar` and the MCP tool `similar_assets`, defined once:
 * `type` is the search's own (core/model/search-params.ts), `limit` the search's bounds with a
 * smaller default.
 */
import { z } from "zod";
import { intParam } from "../schemas/query.ts";
import { SEARCH_PARAMETERS } from "./search-params.ts";

export const SIMILAR_LIMIT = { max: 100, fallback: 10 } as const;
const LIMIT = `related assets to return, 1 to ${SIMILAR_LIMIT.max}, default ${SIMILAR_LIMIT.fallback}`;
const TYPE = "only related assets of these types; texture and material match each other";

/** The query string's form: what every surface finally validates with. */
export const SimilarParams = z.object({
  type: SEARCH_PARAMETERS.type.query.describe(TYPE),
  limit: intParam("limit", 1, SIMILAR_LIMIT.max, SIMILAR_LIMIT.fallback).describe(LIMIT),
});
export type SimilarParams = z.output<typeof SimilarParams>;

/** The typed form, the MCP tool's input; checked afterwards by SimilarParams. */
export const similarArgumentShape = {
  type: SEARCH_PARAMETERS.type.typed.describe(TYPE),
  limit: z.int().min(1).max(SIMILAR_LIMIT.max).optional().describe(LIMIT),
};
