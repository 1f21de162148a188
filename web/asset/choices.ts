/**
 * What the file picker offers, read from the asset's own file list, and the query its choices
 * become. The selection itself (which files a format, resolution and maps give) stays the
 * server's: the picker always shows what `/files` answers for the query.
 */
import type { AssetFile } from "../../core/schemas/index.ts";
import { assetPath } from "../lib/api.ts";

/** The FileParams of `/files`, `/download` and `/raw` as the app holds them. */
export interface Choices {
  format?: string | undefined;
  resolution?: string | undefined;
  /** Map roles or site names; undefined: the server's default set. */
  maps?: readonly string[] | undefined;
}

/** `format=gltf&resolution=1k&maps=diffuse,roughness`, in that order, without the choices left open. */
export function choiceQuery(c: Choices): string {
  const q = new URLSearchParams();
  if (c.format) q.set("format", c.format);
  // The API takes `1k`, `2k` …; a listing's `2048` is the same resolution.
  const k = resolutionK(c.resolution);
  if (k !== undefined && Number.isInteger(k)) q.set("resolution", `${k}k`);
  if (c.maps?.length) q.set("maps", c.maps.join(","));
  return q.toString().replaceAll("%2C", ",");
}

export const withQuery = (path: string, c: Choices): string => {
  const query = choiceQuery(c);
  return query ? `${path}?${query}` : path;
};

export const filesPath = (id: string, c: Choices): string => withQuery(assetPath(id, "/files"), c);
export const downloadPath = (id: string, c: Choices): string => withQuery(assetPath(id, "/download"), c);

/** Files that a plain GET returns: the only ones the server ever selects. */
export const directFiles = (files: readonly AssetFile[]): AssetFile[] => files.filter((f) => !f.requiresAuth);

const formatOf = (f: AssetFile) => f.format.trim().toLowerCase().replace(/^\./, "");

/** `1k` → 1, `2048` → 2, anything else undefined (listed after the known ones). */
export function resolutionK(raw: string | undefined): number | undefined {
  const k = /^(\d+(?:\.\d+)?)\s*k$/i.exec(raw?.trim() ?? "");
  if (k) return Number(k[1]);
  const px = /^(\d{3,5})(?:\s*px)?$/i.exec(raw?.trim() ?? "");
  return px ? Number(px[1]) / 1024 : undefined;
}

const byResolution = (a: string, b: string) => (resolutionK(a) ?? Infinity) - (resolutionK(b) ?? Infinity) || a.localeCompare(b);

const unique = <T>(items: readonly (T | undefined)[]): T[] => [...new Set(items.filter((i): i is T => i !== undefined))];

/** The formats the picker offers, in the source's order. */
export const formatsOf = (files: readonly AssetFile[]): string[] => unique(directFiles(files).map(formatOf));

const ofFormat = (files: readonly AssetFile[], format: string | undefined) => directFiles(files).filter((f) => format === undefined || formatOf(f) === format);

/** The resolutions listed for a format, smallest first. */
export const resolutionsOf = (files: readonly AssetFile[], format: string | undefined): string[] =>
  unique(ofFormat(files, format).map((f) => f.resolution?.toLowerCase())).sort(byResolution);

/** The map roles listed for a format (empty for packages such as a glTF or a zip). */
export const mapsOf = (files: readonly AssetFile[], format: string | undefined): string[] => unique(ofFormat(files, format).map((f) => f.mapType));

/** The listed resolution nearest `wanted` (ties to the smaller), as the server picks; the smallest when nothing is wanted. */
export function nearestResolution(listed: readonly string[], wanted: string | undefined): string | undefined {
  const want = resolutionK(wanted);
  if (want === undefined) return listed.includes(wanted ?? "") ? wanted : listed[0];
  let best: string | undefined;
  let bestGap = Infinity;
  for (const r of listed) {
    const gap = Math.abs((resolutionK(r) ?? Infinity) - want);
    if (gap < bestGap) [best, bestGap] = [r, gap];
  }
  return best;
}
