/**
 * Small helpers shared by the CC0 texture-site sources (ambientCG, cgbookcase, ShareTextures,
 * 3DTextures, TextureCan): resolutions, type filters and text.
 */
import * as cheerio from "cheerio";

export { DAY_MS } from "./census.ts";

/** The text of an HTML fragment, entities decoded and whitespace collapsed. */
export function htmlText(html: string): string {
  return cheerio.load(`<div>${html}</div>`)("div").first().text().replace(/\s+/g, " ").trim();
}

/** `1K`, `2k Maps`, `12K` → `1k`, `2k`, `12k`; undefined when the text names no resolution. */
export function kResolution(text: string): string | undefined {
  const m = /(?:^|[^a-z0-9])(\d{1,2})\s*k(?![a-z])/i.exec(` ${text}`);
  return m ? `${Number(m[1])}k` : undefined;
}

/** A pixel size as a `k` resolution: 4096 → `4k`, 1024 → `1k`; undefined below 512. */
export function pixelsToK(px: number | undefined): string | undefined {
  if (!px || !Number.isFinite(px)) return undefined;
  const k = Math.round(px / 1024);
  return k >= 1 ? `${k}k` : undefined;
}

/** Sorts `k` resolutions by size and removes repeats. */
export function sortResolutions(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((a, b) => parseFloat(a) - parseFloat(b));
}

/** The types a query asks for, as a predicate (an empty list asks for every type). */
export function typeFilter(types: readonly string[]): (type: string) => boolean {
  return types.length === 0 ? () => true : (type) => types.includes(type);
}
