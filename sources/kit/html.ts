import { createRequire } from "node:module";
import type * as Cheerio from "cheerio";

export type { CheerioAPI } from "cheerio";

/**
 * cheerio, loaded by the first page parsed rather than at start: it is the largest import of the
 * server (bench/coldstart.ts), and indexed and API sources never parse HTML at search time.
 */
let cheerio: typeof Cheerio | undefined;

/** cheerio's `load`. */
export const loadHtml: typeof Cheerio.load = (...args) => {
  cheerio ??= createRequire(import.meta.url)("cheerio") as typeof Cheerio;
  return cheerio.load(...args);
};

/** The text of an HTML fragment, entities decoded and whitespace collapsed. */
export const htmlText = (html: string) => loadHtml(`<div>${html}</div>`)("div").first().text().replace(/\s+/g, " ").trim();
