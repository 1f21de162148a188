import type { Asset } from "../schemas/index.ts";
import { stem } from "./stem.ts";
import { words } from "./words.ts";

/** The searched fields of an asset, in the order of every per-field array (term frequencies, lengths). */
export const FIELDS = ["title", "tags", "categories", "description", "author"] as const;
export type Field = (typeof FIELDS)[number];

/** An asset as the scorer reads it: per term, its count in each field; per field, its length in words. */
export interface AnalyzedDoc {
  terms: Map<string, number[]>;
  lengths: number[];
  /** The terms that are words of the asset (not only pairs written together): what prefixes and typos are looked up among. */
  words: Set<string>;
}

/** The term two adjacent words make when written together ("low" "poly" → lowpoli). */
export const joined = (first: string, second: string): string => stem(first + second);

/**
 * The terms of one run of words (a title, one tag): each word's stem, and the stem of each adjacent
 * pair written together, so "low poly", "low-poly", "LowPoly" and "lowpoly" all hold `lowpoli`.
 */
export function runTerms(text: string): { words: string[]; pairs: string[] } {
  const ws = words(text);
  return { words: ws.map(stem), pairs: ws.slice(1).map((w, i) => joined(ws[i]!, w)) };
}

/** Each field's runs: a title or a description is one run, each tag and category its own. */
function fieldRuns(asset: Asset): string[][] {
  return [[asset.title], asset.tags, asset.categories ?? [], asset.description ? [asset.description] : [], asset.author ? [asset.author] : []];
}

export function analyze(asset: Asset): AnalyzedDoc {
  const terms = new Map<string, number[]>();
  const words = new Set<string>();
  const lengths = fieldRuns(asset).map((runs, field) => {
    let length = 0;
    for (const run of runs) {
      const r = runTerms(run);
      length += r.words.length;
      for (const w of r.words) words.add(w);
      for (const term of [...r.words, ...r.pairs]) {
        let counts = terms.get(term);
        if (!counts) {
          counts = FIELDS.map(() => 0);
          terms.set(term, counts);
        }
        counts[field]!++;
      }
    }
    return length;
  });
  return { terms, lengths, words };
}
