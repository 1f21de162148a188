import { stem as porter2 } from "porter2";

/** Bound of the memo: a catalogue repeats a few thousand words, queries may bring any number. */
const CACHE_LIMIT = 100_000;
const cache = new Map<string, string>();

/**
 * The Porter2 (Snowball English) stem of a folded word: plurals and -ing/-ed endings go
 * ("skies" → sky, "buildings" → build). Words holding digits are kept as they are ("01", "4k").
 */
export function stem(word: string): string {
  let out = cache.get(word);
  if (out === undefined) {
    out = /\d/.test(word) ? word : porter2(word);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(word, out);
  }
  return out;
}
