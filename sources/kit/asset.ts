/** Building records: an asset of a source with its id triple, and any record with absent fields left out. */
import type { Asset } from "../../core/schemas/index.ts";
import { httpUrl } from "./url.ts";

/** The record types an adapter builds. */
export type { Asset, AssetDetails, AssetFile, AssetType, License, Price } from "../../core/schemas/index.ts";

type Absent = undefined | null | "";

/** The record without its absent fields: undefined, null, empty strings and empty lists. */
export function compact<T extends object>(record: T): { [K in keyof T]: Exclude<T[K], Absent> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0)) continue;
    out[key] = value;
  }
  return out as { [K in keyof T]: Exclude<T[K], Absent> };
}

type Optionals<T> = { [K in keyof T]?: T[K] | Absent };
/** An asset's fields as an adapter has them: the required ones, the rest possibly absent. */
export type AssetFields = Pick<Asset, "title" | "type" | "url" | "downloadable"> &
  Optionals<Omit<Asset, "id" | "provider" | "nativeId" | "title" | "type" | "url" | "downloadable">>;

/**
 * The asset builder of one source: `id`, `provider` and `nativeId` filled, absent fields dropped,
 * `tags` always a list, and a thumbnail kept only when it is an http(s) URL.
 */
export function assetMaker(source: string): (nativeId: string, fields: AssetFields) => Asset {
  return (nativeId, fields) => {
    const thumbnailUrl = httpUrl(fields.thumbnailUrl);
    const asset = compact({ id: `${source}:${nativeId}`, provider: source, nativeId, ...fields, thumbnailUrl });
    return { ...asset, tags: asset.tags ?? [] } as Asset;
  };
}

/** A count or size as a whole number; undefined when the upstream gives none. */
export const round = (n: number | null | undefined) => (n != null ? Math.round(n) : undefined);

/** Words in order, each once whatever its case (the first spelling kept), empty ones left out. */
export const uniqueWords = (words: readonly string[]) => words.filter((w, i) => w && words.findIndex((x) => x.toLowerCase() === w.toLowerCase()) === i);
