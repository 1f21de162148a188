import { z } from "zod";
import { AssetType, License } from "./asset.ts";

export const Access = z.enum(["api", "scrape", "link"]);
export type Access = z.infer<typeof Access>;
export const Pricing = z.enum(["free", "freemium", "paid"]);
export type Pricing = z.infer<typeof Pricing>;

/** A filter or data sort of the search (core/model/filters.ts `FilterKey`: toProvider stops compiling should that gain a key this lacks). */
export const FilterKey = z
  .enum(["license", "commercial", "attribution", "author", "category", "format", "resolution", "maxPolys", "animated", "rigged", "newest", "popular"])
  .meta({ id: "FilterKey" });
export type FilterKey = z.infer<typeof FilterKey>;

export const ProviderFiltering = z
  .object({
    index: z.boolean().describe("true for an indexed source: the index applies every filter and sort its records carry, and `upstream` and `listed` are empty"),
    upstream: z.array(FilterKey).describe("the site applies these itself: they are passed in its search request (a link source: in its search link)"),
    listed: z.array(FilterKey).describe("the site's listings carry the field these read, so the search applies them to what it sends back"),
  })
  .meta({ id: "ProviderFiltering" });
export type ProviderFiltering = z.infer<typeof ProviderFiltering>;

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
    keyRequired: z.boolean().optional().describe("additive: with `keyEnv`, whether the source works only with the key (without it, it is not enabled)"),
    keyConfigured: z.boolean().optional().describe("additive: with `keyEnv`, whether this server has the key set (the key itself is never shown)"),
    filtering: ProviderFiltering.optional().describe("additive: which filters and sorts the site applies and which the search applies to its listings"),
  })
  .meta({ id: "Provider" });
export type Provider = z.infer<typeof Provider>;

export const ProvidersResponse = z.object({ providers: z.array(Provider) }).meta({ id: "ProvidersResponse" });
