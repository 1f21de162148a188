/** Helpers of the CC0 texture-site sources (ambientCG, cgbookcase, ShareTextures, 3DTextures, TextureCan). */
import { licenseById } from "../../core/model/license.ts";
import type { SourceMeta, SourceQuery } from "../../core/model/source.ts";
import type { Asset } from "../../core/schemas/index.ts";

/** A texture site's id, name and homepage, with the facts all of them share: free, CC0, results are single assets. */
export function cc0Site(id: string, name: string, homepage: string): Pick<SourceMeta, "id" | "name" | "homepage" | "pricing" | "license" | "unit"> {
  return { id, name, homepage, pricing: "free", license: licenseById("CC0-1.0"), unit: "assets" };
}

/** `1K`, `2k Maps`, `12K` → `1k`, `2k`, `12k`; undefined when the text names no resolution. */
export function kResolution(text: string): string | undefined {
  const n = /(?:^|[^a-z0-9])(\d{1,2})\s*k(?![a-z])/i.exec(` ${text}`)?.[1];
  return n ? `${Number(n)}k` : undefined;
}
/** A pixel size as a `k` resolution: 4096 → `4k`, 1024 → `1k`; undefined below 512. */
export const pixelsToK = (px: number | undefined) => (px !== undefined && Number.isFinite(px) && px >= 512 ? `${Math.round(px / 1024)}k` : undefined);
/** Sorts `k` resolutions by size and removes repeats. */
export const sortResolutions = (values: Iterable<string>) => [...new Set(values)].sort((a, b) => parseFloat(a) - parseFloat(b));
/** The types a query asks for, as a predicate (an empty list asks for every type). */
export const typeFilter = (types: readonly string[]) => (type: string) => types.length === 0 || types.includes(type);

/** The assets a query asks for (its types; only free ones when it asks so), with the upstream total while it holds: when none was left out. */
export function keepAsked(all: Asset[], query: SourceQuery, total: number | undefined) {
  const wanted = typeFilter(query.types);
  const assets = all.filter((a) => wanted(a.type) && (!query.free || a.price?.free));
  return { assets, total: assets.length === all.length ? total : undefined };
}
