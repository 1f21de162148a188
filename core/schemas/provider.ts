import { z } from "zod";
import { AssetType, License } from "./asset.ts";

export const Access = z.enum(["api", "scrape", "link"]);
export type Access = z.infer<typeof Access>;
export const Pricing = z.enum(["free", "freemium", "paid"]);
export type Pricing = z.infer<typeof Pricing>;

export const Provider = z
  .object({
    id: z.string(),
    name: z.string(),
    homepage: z.url(),
    description: z.string(),
    assetTypes: z.array(AssetType),
    access: Access,
    pricing: Pricing,
    license: License.optional(),
    supportsDownload: z.boolean(),
    enabled: z.boolean().optional(),
    keyEnv: z.string().optional().describe("additive: environment variable of the optional key that enables or extends this source"),
    mode: z.enum(["indexed", "live", "link"]).optional().describe("additive: searched from the prebuilt index, live, or link only"),
  })
  .meta({ id: "Provider" });
export type Provider = z.infer<typeof Provider>;

export const ProvidersResponse = z.object({ providers: z.array(Provider) }).meta({ id: "ProvidersResponse" });
