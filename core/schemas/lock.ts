/**
 * `assets.lock.json`: what a project took from which site under which licence, written by
 * `asset-search get` and the MCP tool `download_asset`, read by `credits`, `licenses` and
 * `verify`. Its JSON Schema is served at `/schemas/AssetsLock.json`.
 */
import { z } from "zod";
import { License, Price } from "./asset.ts";

/** The lock file's name, beside the folder the assets are written to. */
export const LOCK_FILENAME = "assets.lock.json";

export const LockedFile = z
  .object({
    path: z.string().describe("where the file is, relative to the lock file, with `/` separators"),
    url: z.url().describe("where it was downloaded from"),
    sizeBytes: z.int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .meta({ id: "LockedFile" });
export type LockedFile = z.infer<typeof LockedFile>;

/** The selection asked for (the `/files` parameters as given), so a second `get` can tell it is the same. */
export const LockedOptions = z
  .object({
    format: z.string().optional(),
    resolution: z.string().optional(),
    maps: z.array(z.string()).optional(),
    all: z.boolean().optional(),
  })
  .meta({ id: "LockedOptions" });
export type LockedOptions = z.infer<typeof LockedOptions>;

export const LockedAsset = z
  .object({
    id: z.string().describe("`<provider>:<nativeId>`"),
    title: z.string(),
    url: z.url().describe("the asset's page on the source site"),
    provider: z.string(),
    author: z.string().optional(),
    license: License.optional().describe("as the source states it; absent when the source states none"),
    price: Price.optional(),
    folder: z.string().describe("the asset's folder, relative to the lock file"),
    options: LockedOptions,
    downloadedAt: z.iso.datetime(),
    files: z.array(LockedFile).describe("every upstream file written, companions included; not the generated LICENSE.txt"),
  })
  .meta({ id: "LockedAsset" });
export type LockedAsset = z.infer<typeof LockedAsset>;

export const AssetsLock = z
  .object({
    lockfileVersion: z.literal(1),
    assets: z.array(LockedAsset).describe("one entry per asset, ordered by id"),
  })
  .meta({ id: "AssetsLock" });
export type AssetsLock = z.infer<typeof AssetsLock>;

/** One file `get` wrote or found already in place. */
export const WrittenFile = LockedFile.extend({
  fetched: z.boolean().describe("false when the file on disk already had the locked sha256 and was not downloaded again"),
}).meta({ id: "WrittenFile" });

/** What `get` and `download_asset` answer. */
export const DownloadResult = z
  .object({
    id: z.string(),
    folder: z.string().describe("the asset's folder, relative to the lock file"),
    lockFile: z.string().describe("the lock file's path as given to the command or tool"),
    upToDate: z.boolean().describe("true when the lock already held this selection and every file matched: nothing was asked upstream"),
    license: License.optional(),
    attribution: z.string().optional().describe("ready-to-paste credit line; present when the licence requires credit"),
    files: z.array(WrittenFile),
  })
  .meta({ id: "DownloadResult" });
export type DownloadResult = z.infer<typeof DownloadResult>;
