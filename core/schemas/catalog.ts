import { z } from "zod";

export const CountWithBound = z.object({ count: z.int().min(0), atLeast: z.boolean().optional() }).meta({ id: "CountWithBound" });
export type CountWithBound = z.infer<typeof CountWithBound>;

const Counts = z.record(z.string(), z.int().min(0));

export const Highlight = z.object({ label: z.string(), title: z.string(), url: z.url(), value: z.int().optional() }).meta({ id: "Highlight" });

export const SourceCensus = z
  .object({
    id: z.string(),
    name: z.string(),
    homepage: z.url(),
    total: z.int().min(0).describe("listings on the source, free and paid"),
    atLeast: z.boolean().optional(),
    free: z.int().min(0).optional(),
    byType: Counts,
    byLicense: Counts.optional(),
    categories: Counts.optional(),
    unit: z.enum(["assets", "packs"]).optional(),
    addedLast30Days: z.int().min(0).optional(),
    downloads: z.int().min(0).optional(),
    highlights: z.array(Highlight).optional(),
    method: z.string().describe("how the source was counted"),
    countedAt: z.iso.datetime(),
    stale: z.object({ since: z.iso.datetime().optional(), error: z.string().optional() }).optional(),
  })
  .meta({ id: "SourceCensus" });
export type SourceCensus = z.infer<typeof SourceCensus>;

export const Catalog = z
  .object({
    countedAt: z.iso.datetime(),
    totals: z.object({
      listings: CountWithBound,
      free: CountWithBound,
      cc0: CountWithBound,
      directDownload: CountWithBound,
      addedLast30Days: z.int().min(0),
      sourcesCounted: z.int().min(0),
      sourcesLinked: z.int().min(0),
    }),
    byType: z.record(z.string(), CountWithBound),
    byLicense: Counts.optional(),
    sources: z.array(SourceCensus),
    linked: z.array(z.object({ id: z.string(), name: z.string(), homepage: z.string() })).optional(),
  })
  .meta({ id: "Catalog" });
export type Catalog = z.infer<typeof Catalog>;

/** One day of `/catalog-history.json` (our own shape: the contract leaves it open). */
export const CatalogHistoryPoint = z
  .object({
    date: z.iso.date().describe("UTC day"),
    countedAt: z.iso.datetime(),
    listings: z.int().min(0),
    free: z.int().min(0),
    cc0: z.int().min(0),
    directDownload: z.int().min(0),
    sources: z.record(z.string(), z.int().min(0)).describe("listings per source id"),
    // Optional: points written before these fields existed lack them.
    stale: z.array(z.string()).optional().describe("ids of the sources whose numbers were carried over from an earlier count"),
    atLeast: z.boolean().optional().describe("true when `listings` is a lower bound (a source capped, stale or never counted)"),
    sourcesCounted: z.int().min(0).optional().describe("sources whose numbers are in the totals"),
    byType: Counts.optional().describe("listings per asset type (each a lower bound when `atLeast` is)"),
  })
  .meta({ id: "CatalogHistoryPoint" });
export type CatalogHistoryPoint = z.infer<typeof CatalogHistoryPoint>;

export const CatalogHistory = z.object({ points: z.array(CatalogHistoryPoint) }).meta({ id: "CatalogHistory" });
export type CatalogHistory = z.infer<typeof CatalogHistory>;
