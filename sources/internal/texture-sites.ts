/**
 * Small helpers shared by the CC0 texture-site sources (ambientCG, cgbookcase, ShareTextures,
 * 3DTextures, TextureCan): fetching with errors that name the source, paging a per-source offset
 * onto a site's numbered pages, and a few text helpers.
 */
import * as cheerio from "cheerio";
import { UpstreamError, type TextResponse } from "../../core/http/types.ts";
import type { SourceContext } from "../../core/source.ts";

export const DAY_MS = 86_400_000;

/** GET a text body with the context's signal. */
export function fetchText(url: string, ctx: SourceContext): Promise<TextResponse> {
  return ctx.http.getText(url, { signal: ctx.signal });
}

/** GET and parse JSON; a body that is not JSON is an error naming the source. Returns the headers too. */
export async function fetchJsonWithHeaders<T = unknown>(
  source: string,
  url: string,
  ctx: SourceContext,
): Promise<{ body: T; headers: Record<string, string> }> {
  const res = await ctx.http.getText(url, { signal: ctx.signal, headers: { accept: "application/json" } });
  try {
    return { body: JSON.parse(res.text) as T, headers: res.headers };
  } catch {
    throw new UpstreamError(`${source}: ${url} did not answer JSON`, url, "parse", res.status);
  }
}

export async function fetchJson<T = unknown>(source: string, url: string, ctx: SourceContext): Promise<T> {
  return (await fetchJsonWithHeaders<T>(source, url, ctx)).body;
}

/** An error for a response whose shape changed, naming the source. */
export function shapeError(source: string, url: string, what: string): UpstreamError {
  return new UpstreamError(`${source}: ${what}`, url, "parse");
}

export function is404(err: unknown): boolean {
  return err instanceof UpstreamError && err.status === 404;
}

/**
 * The site pages (1-based, of `pageSize` items) that hold items `offset … offset+limit-1`, and how
 * many items of the first of them to skip.
 */
export function pagesFor(offset: number, limit: number, pageSize: number): { pages: number[]; skip: number } {
  const first = Math.floor(offset / pageSize) + 1;
  const last = Math.floor((offset + Math.max(1, limit) - 1) / pageSize) + 1;
  const pages: number[] = [];
  for (let p = first; p <= last; p++) pages.push(p);
  return { pages, skip: offset - (first - 1) * pageSize };
}

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
