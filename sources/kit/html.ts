import { createRequire } from "node:module";
import type * as Cheerio from "cheerio";
import { parseJson } from "./fetch.ts";

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

/** The `content` of a page's `<meta property>` or `<meta name>` named `key`, trimmed; undefined when absent or empty. */
export const metaContent = ($: Cheerio.CheerioAPI, key: string) =>
  $(`meta[property="${key}"], meta[name="${key}"]`).first().attr("content")?.trim() || undefined;

export type JsonLdNode = { "@type"?: string | string[]; [key: string]: unknown };

/** A JSON-LD value's nodes: itself when an object, the items of an array, and the nodes of its `@graph`. */
function nodesOf(value: unknown): JsonLdNode[] {
  if (Array.isArray(value)) return value.flatMap(nodesOf);
  if (!value || typeof value !== "object") return [];
  const graph = (value as JsonLdNode)["@graph"];
  return [value as JsonLdNode, ...(Array.isArray(graph) ? nodesOf(graph) : [])];
}

/** The JSON-LD nodes of a page, in page order; a block that is not JSON is left out after `invalid` (which may throw) is told. */
export function jsonLd($: Cheerio.CheerioAPI, invalid: () => void = () => {}): JsonLdNode[] {
  return Array.from($("script[type='application/ld+json']"), (script) => {
    const value = parseJson($(script).text());
    if (value === undefined) invalid();
    return nodesOf(value);
  }).flat();
}

/** Whether a JSON-LD node is of `type` (one of its types). */
export const isJsonLdType = (node: JsonLdNode, type: string) => [node["@type"]].flat().includes(type);
