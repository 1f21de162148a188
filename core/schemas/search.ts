import { z } from "zod";
import { Asset, AssetType } from "./asset.ts";

export const ProviderStatus = z.enum(["ok", "error", "timeout", "skipped", "link"]);
export type ProviderStatus = z.infer<typeof ProviderStatus>;

export const ProviderReport = z
  .object({
    provider: z.string(),
    name: z.string(),
    status: ProviderStatus,
    count: z.int().min(0),
    total: z.int().min(0).optional(),
    totalAtLeast: z
      .boolean()
      .optional()
      .describe("true when `total` is a lower bound: the index read only the best matches of each word for this source (a very broad word over a large index)"),
    searchUrl: z.url().optional(),
    error: z.string().optional(),
    tookMs: z.int().min(0),
  })
  .meta({ id: "ProviderReport" });
export type ProviderReport = z.infer<typeof ProviderReport>;

export const FacetCount = z.object({ value: z.string(), count: z.int().min(1) }).meta({ id: "FacetCount" });
export type FacetCount = z.infer<typeof FacetCount>;

export const Facets = z
  .object({
    total: z.int().min(0).describe("the merged results counted: every index hit and every live listing, de-duplicated, before paging"),
    type: z.array(FacetCount).describe("by asset type; adds up to total"),
    license: z.array(FacetCount).describe("by licence family (cc0, cc-by, ofl …; other: a licence without SPDX id; unknown: none stated); adds up to total"),
    source: z.array(FacetCount).describe("by source id; adds up to total"),
    format: z.array(FacetCount).describe("by file format offered (unknown: none listed); an asset offering several formats counts in each"),
  })
  .meta({ id: "Facets" });
export type Facets = z.infer<typeof Facets>;

export const SparseSuggestion = z
  .object({
    provider: z.string().describe("the link-only source's id"),
    label: z.string().describe("what to show, naming the site"),
    searchUrl: z.url().describe("the same search on that site, as its `link` status line gives it"),
  })
  .meta({ id: "SparseSuggestion" });
export type SparseSuggestion = z.infer<typeof SparseSuggestion>;

export const SparseAnswer = z
  .object({
    reason: z.string().describe("why the answer is short, in a sentence"),
    shown: z.int().min(0).describe("how many results the first page shows, after the junk floor"),
    bestShare: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe("when the best result is itself weak: the share of the query it holds (its rarer words counting more), below one half"),
    suggestions: z.array(SparseSuggestion).describe("where else to look: the link-only sites considered, each with the same search on it"),
    nearestType: AssetType.optional().describe(
      'a type the query\'s own words name ("sound" → audio) that the `type` filter left out: the same search with this type may answer',
    ),
  })
  .meta({ id: "SparseAnswer" });
export type SparseAnswer = z.infer<typeof SparseAnswer>;

export const SearchResponse = z
  .object({
    query: z.string(),
    types: z.array(AssetType).optional(),
    results: z.array(Asset),
    providers: z.array(ProviderReport),
    facets: Facets.optional().describe("additive: counts over the whole result set, with facets=true"),
    sparse: SparseAnswer.optional().describe(
      "additive: present when little answers the query (a first page holding fewer than its limit and fewer than 10 results, or whose best result holds less than half the query, its rarer words counting more): results far weaker than the best are not shown as answers (the junk floor), and this says so and where else to look",
    ),
  })
  .meta({ id: "SearchResponse" });
export type SearchResponse = z.infer<typeof SearchResponse>;
