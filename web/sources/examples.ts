/**
 * Searches that show what a source holds, each an address of the search page limited to the
 * source: everything on it, its most listed types, and the words of its largest categories.
 */
import type { AssetType, Provider, SourceCensus } from "../../core/schemas/index.ts";
import { TYPE_NAMES } from "../search/labels.ts";
import { typesOf } from "./facts.ts";

export interface ExampleSearch {
  label: string;
  href: string;
}

const EACH = 3;
/** A category worth typing is one word: "collection: moon" or "man made" are the site's filing, not a search. */
const WORDS = /^[\p{L}\d-]{2,24}$/u;

const search = (params: Record<string, string>) => `/?${new URLSearchParams(params)}`;

export function exampleSearches(p: Provider, census: SourceCensus | undefined): ExampleSearch[] {
  const types = typesOf(p, census)
    .filter((t) => t.type in TYPE_NAMES && t.type !== "other")
    .slice(0, EACH)
    .map((t) => ({ label: `${TYPE_NAMES[t.type as AssetType].many} on ${p.name}`, href: search({ type: t.type, providers: p.id }) }));
  const words = Object.entries(census?.categories ?? {})
    .filter(([name]) => WORDS.test(name))
    .sort(([, a], [, b]) => b - a)
    .slice(0, EACH)
    .map(([name]) => ({ label: `“${name}” on ${p.name}`, href: search({ q: name, providers: p.id }) }));
  return [{ label: `Everything on ${p.name}`, href: search({ providers: p.id }) }, ...types, ...words];
}
