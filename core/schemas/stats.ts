import { z } from "zod";

const count = z.int().min(0);

export const UsageWindow = z
  .object({
    key: z.enum(["24h", "7d", "process"]),
    label: z.string(),
    searches: count,
    searchesWithResults: count,
    bySurface: z.object({ web: count, api: count, mcp: count }),
    assetViews: count,
    downloads: count,
    previews: count.describe("additive: files served for a preview before download (GET /v1/assets/{id}/raw/{path}); not counted as downloads"),
    toolCalls: count,
    pageViews: count,
  })
  .meta({ id: "UsageWindow" });
export type UsageWindow = z.infer<typeof UsageWindow>;

export const Ranked = z.object({ name: z.string(), count }).meta({ id: "Ranked" });
export type Ranked = z.infer<typeof Ranked>;

export const ProviderHealth = z
  .object({
    provider: z.string(),
    requests: count,
    ok: count,
    errors: count,
    timeouts: count,
    okRate: z.number().min(0).max(1).nullable(),
    p50Ms: z.int().min(0).nullable(),
    p95Ms: z.int().min(0).nullable(),
  })
  .meta({ id: "ProviderHealth" });
export type ProviderHealth = z.infer<typeof ProviderHealth>;

export const Stats = z
  .object({
    generatedAt: z.iso.datetime(),
    source: z.enum(["metrics", "process"]),
    since: z.iso.datetime().optional(),
    windows: z.array(UsageWindow),
    breakdownLabel: z.string(),
    clients: z.array(Ranked),
    tools: z.array(Ranked),
    assetTypes: z.array(Ranked),
    providers: z.array(ProviderHealth),
    catalog: z.object({
      sources: count,
      directDownload: count,
      byAccess: z.record(z.string(), count),
      byPricing: z.record(z.string(), count),
    }),
    note: z
      .string()
      .optional()
      .describe("additive: set when a metrics system is configured but could not be read; says why, and that the counts are this process's since it started"),
  })
  .meta({ id: "Stats" });
export type Stats = z.infer<typeof Stats>;
