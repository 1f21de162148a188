import { z } from "zod";

/** The asset types the API knows. */
export const ASSET_TYPES = ["model", "texture", "material", "hdri", "sprite", "ui", "audio", "font", "pack", "other"] as const;
export const AssetType = z.enum(ASSET_TYPES).meta({ id: "AssetType" });
export type AssetType = z.infer<typeof AssetType>;

export const License = z
  .object({
    name: z.string().describe("licence name, for example CC0 1.0 Universal"),
    url: z.url().optional(),
    commercialUse: z.boolean().optional(),
    attributionRequired: z.boolean().optional(),
    spdx: z.string().optional().describe("additive: SPDX identifier where one exists (CC0-1.0, CC-BY-4.0 …)"),
  })
  .meta({ id: "License" });
export type License = z.infer<typeof License>;

export const Price = z.object({ free: z.boolean(), amount: z.number().optional(), currency: z.string().optional() }).meta({ id: "Price" });
export type Price = z.infer<typeof Price>;

/** Another listing of the same asset on a different source (additive field of Asset). */
export const AlsoOn = z.object({ id: z.string(), provider: z.string(), url: z.url() }).meta({ id: "AlsoOn" });
export type AlsoOn = z.infer<typeof AlsoOn>;

export const Asset = z
  .object({
    id: z.string().describe("globally unique, form <provider>:<nativeId>"),
    provider: z.string(),
    nativeId: z.string(),
    title: z.string(),
    description: z.string().optional(),
    type: AssetType,
    tags: z.array(z.string()),
    categories: z.array(z.string()).optional(),
    url: z.url().describe("the asset's page on the source site"),
    originalUrl: z
      .url()
      .optional()
      .describe("additive: the original's page when the source says this listing republishes another site's asset; a search shows the two as one result"),
    thumbnailUrl: z.url().optional(),
    author: z.string().optional(),
    license: License.optional(),
    price: Price.optional(),
    formats: z.array(z.string()).optional(),
    resolutions: z.array(z.string()).optional(),
    polyCount: z.int().optional(),
    animated: z.boolean().optional(),
    rigged: z.boolean().optional(),
    downloadable: z.boolean().describe("true when this server can fetch the files directly"),
    createdAt: z.string().optional(),
    downloads: z.int().min(0).optional().describe("additive: how many times the source says the asset was downloaded; what sort=popular orders by"),
    score: z.number().min(0).max(1).optional(),
    alsoOn: z.array(AlsoOn).optional().describe("additive: the same asset listed by other sources"),
  })
  .meta({ id: "Asset" });
export type Asset = z.infer<typeof Asset>;

export const IncludedFile = z.object({ path: z.string(), url: z.url(), sizeBytes: z.int().optional() }).meta({ id: "IncludedFile" });
export type IncludedFile = z.infer<typeof IncludedFile>;

export const AssetFile = z
  .object({
    url: z.url(),
    filename: z.string(),
    format: z.string(),
    resolution: z.string().optional(),
    mapType: z.string().optional().describe("texture map role (diffuse, normal, roughness and similar)"),
    sizeBytes: z.int().optional(),
    group: z.string().optional().describe("package grouping (gltf, blend, textures, archive and similar)"),
    includes: z.array(IncludedFile).optional().describe("companion files that must sit next to this file"),
    requiresAuth: z.boolean().optional().describe("needs a login or purchase on the source site"),
  })
  .meta({ id: "AssetFile" });
export type AssetFile = z.infer<typeof AssetFile>;

export const AssetDetails = Asset.extend({
  files: z.array(AssetFile),
  shareUrl: z.url().optional().describe("a web page for people that opens the asset in the search app"),
}).meta({ id: "AssetDetails" });
export type AssetDetails = z.infer<typeof AssetDetails>;

export const FileSelection = z
  .object({
    id: z.string(),
    license: License.optional(),
    totalBytes: z.int().optional(),
    files: z.array(AssetFile),
  })
  .meta({ id: "FileSelection" });
export type FileSelection = z.infer<typeof FileSelection>;
