import { z } from "zod";
import { Asset } from "./asset.ts";

/**
 * Why an asset is related to another, from the fields the index holds (core/relevance/similarity.ts):
 * the same series (titles that differ only by a number or a variant: Brick Wall 04 and Brick Wall 29,
 * Font Awesome 6 Solid and Font Awesome 6 Regular), a shared author, shared categories, shared tags,
 * or the same subject (a word of the title found in the other's title, tags or categories).
 */
export const SIMILAR_REASON_KINDS = ["series", "author", "category", "tags", "subject"] as const;
export const SimilarReasonKind = z.enum(SIMILAR_REASON_KINDS);
export type SimilarReasonKind = z.infer<typeof SimilarReasonKind>;

export const SimilarReason = z
  .object({
    kind: SimilarReasonKind.describe(
      "series: titles that differ only by a number or a variant; author: a shared author or creator; category: shared categories; tags: shared tags; subject: a word of the asset's title in the other's title, tags or categories",
    ),
    detail: z.string().describe("the reason in words, for example 'same series: Brick Wall' or 'shared tags: chair, furniture'"),
    values: z.array(z.string()).min(1).describe("what the two assets share, as the asset asked about names it"),
  })
  .meta({ id: "SimilarReason" });
export type SimilarReason = z.infer<typeof SimilarReason>;

export const SimilarAsset = Asset.extend({
  score: z
    .number()
    .min(0)
    .max(1)
    .describe("how closely it is related, 0..1: the weighted share of the asked asset's series, authors, categories, tags and title words it shares"),
  reasons: z.array(SimilarReason).min(1).describe("why it is related, the weightiest reason first"),
}).meta({ id: "SimilarAsset" });
export type SimilarAsset = z.infer<typeof SimilarAsset>;

export const SimilarResponse = z
  .object({
    id: z.string().describe("the asset asked about"),
    results: z
      .array(SimilarAsset)
      .describe(
        "related assets of every indexed source, best first; the asset itself and its listings on other sources are left out, and one asset listed by several sources is one result with `alsoOn`",
      ),
  })
  .meta({ id: "SimilarResponse" });
export type SimilarResponse = z.infer<typeof SimilarResponse>;
