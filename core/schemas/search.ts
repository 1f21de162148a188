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
    searchUrl: z.url().optional(),
    error: z.string().optional(),
    tookMs: z.int().min(0),
  })
  .meta({ id: "ProviderReport" });
export type ProviderReport = z.infer<typeof ProviderReport>;

export const SearchResponse = z
  .object({
    query: z.string(),
    types: z.array(AssetType).optional(),
    results: z.array(Asset),
    providers: z.array(ProviderReport),
  })
  .meta({ id: "SearchResponse" });
export type SearchResponse = z.infer<typeof SearchResponse>;
