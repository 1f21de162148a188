import { readFileSync } from "node:fs";
import { z } from "zod";
import { AssetType } from "../../core/schemas/index.ts";

/** One judged query of `judged-set.json` (the README's "How relevance is judged" says how it was made). */
export const JudgedQuery = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  q: z.string(),
  /** Filters sent to /v1/search as a user would: comma-separated types and source ids, free only. */
  type: z.string().optional(),
  providers: z.string().optional(),
  free: z.boolean().optional(),
  /** The kind of asset the searcher wants (the filter when there is one): the set covers every type. */
  wants: AssetType,
  intent: z.string(),
  rubric: z.strictObject({ "3": z.string(), "2": z.string(), "1": z.string() }),
  /** Words whose occurrence in a record's title, tags, categories or description pools it as a candidate. */
  pool: z.array(z.string()).min(1),
  /** Every candidate graded 1 to 3, by asset id; a candidate not listed is graded 0. */
  judgments: z.record(z.string(), z.union([z.literal(1), z.literal(2), z.literal(3)])),
});
export type JudgedQuery = z.infer<typeof JudgedQuery>;

export const JudgedSet = z.strictObject({
  /** The mean NDCG@10 the relevance test requires: the engine's measured mean, rounded down, when it was last set. */
  minimumMeanNdcg: z.number().min(0).max(1),
  /** The junk share the relevance test allows (bench/relevance.ts junkShare): grade-0 results in the top 10 of queries with fewer than ten relevant assets. */
  maximumJunkShare: z.number().min(0).max(1),
  queries: z.array(JudgedQuery),
});
export type JudgedSet = z.infer<typeof JudgedSet>;

export const JUDGED_SET_PATH = new URL("./judged-set.json", import.meta.url);

export function loadJudgedSet(): JudgedSet {
  return JudgedSet.parse(JSON.parse(readFileSync(JUDGED_SET_PATH, "utf8")));
}
