/**
 * Writes the browser index: the index's terms and records cut into small static files, so a page
 * searching a catalogue of any size downloads a few shards per query instead of the whole
 * catalogue (core/index/browser/search.ts reads them). Terms are cut in shards of contiguous terms
 * by size, each term keeping its best postings over all sources with the saturations the server's
 * index scores with; records are cut by document number.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BROWSER_FILES, BROWSER_INDEX_FORMAT, recordShardFile, type TermEntry, termShardFile } from "../../schemas/browser-format.ts";
import { BrowserIndexMeta, BrowserRecord } from "../../schemas/browser-index.ts";
import type { IndexStore } from "../store.ts";

export interface BrowserIndexOptions {
  /** A term's best postings kept: a page ranks the best of each word, as the server's bounded search does. */
  postingsPerTerm: number;
  /** A term shard is closed once its JSON passes this many characters (one large term may pass it alone). */
  shardChars: number;
  recordsPerShard: number;
}

/**
 * About 16 KB of gzip per term shard and 10 KB per record shard, what a static host sends in one
 * round trip; 500 postings a word are more than a page of results needs from any one word.
 */
export const BROWSER_INDEX_DEFAULTS: BrowserIndexOptions = { postingsPerTerm: 500, shardChars: 64 * 1024, recordsPerShard: 64 };

/** How the terms were made, for the meta: what search.js applies to a query. */
const ANALYSIS =
  "the records' terms as core/text/analyze.ts makes them (words split and folded, Porter2 stems, each two adjacent words also written together); search.js reads a query with core/relevance/query-plan.ts (synonyms, type words not required) and has no typos or prefixes";

/** Saturations with three significant decimals: the order of a term's postings is kept, the shard is half the size. */
const rounded = (x: number) => Math.round(x * 1000) / 1000;

/** A term's best `limit` postings over all sources (each source's list is best first), best first, ties by document. */
export function bestPostings(store: IndexStore, term: string, limit: number): TermEntry {
  const found: [doc: number, saturation: number][] = [];
  for (const { pieces } of store.postings(term, limit) ?? []) {
    let taken = 0;
    for (const piece of pieces) {
      for (let i = 0; i < piece.docs.length && taken < limit; i++, taken++) found.push([piece.docs[i]!, piece.saturations[i]!]);
    }
  }
  found.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const best = found.slice(0, limit);
  return [store.documentFrequency(term), best.map(([doc]) => doc), best.map(([, s]) => rounded(s))];
}

const writeJson = (dir: string, file: string, content: string) => writeFileSync(join(dir, file), content);

/** Writes the term shards; returns the first term of each. Terms in JavaScript string order, the order search.js bisects in. */
function writeTerms(store: IndexStore, dir: string, options: BrowserIndexOptions): string[] {
  const terms = [...store.termNames()].sort();
  const firsts: string[] = [];
  let entries: string[] = [];
  let chars = 0;
  const flush = () => {
    writeJson(dir, termShardFile(firsts.length - 1), `{${entries.join(",")}}`);
    entries = [];
    chars = 0;
  };
  for (const term of terms) {
    const entry = `${JSON.stringify(term)}:${JSON.stringify(bestPostings(store, term, options.postingsPerTerm))}`;
    if (entries.length && chars + entry.length > options.shardChars) flush();
    if (!entries.length) firsts.push(term);
    entries.push(entry);
    chars += entry.length + 1;
  }
  if (entries.length) flush();
  writeJson(dir, BROWSER_FILES.firstTerms, JSON.stringify(firsts));
  return firsts;
}

/** Writes the record shards; returns how many. */
function writeRecords(store: IndexStore, dir: string, perShard: number): number {
  let shard: string[] = [];
  let shards = 0;
  const flush = () => {
    writeJson(dir, recordShardFile(shards++), `[${shard.join(",")}]`);
    shard = [];
  };
  for (const asset of store.records()) {
    shard.push(JSON.stringify(BrowserRecord.parse(asset)));
    if (shard.length === perShard) flush();
  }
  if (shard.length) flush();
  return shards;
}

/** Writes the browser index of `store` into `dir` (`<publication>/v1/browser/`), its meta last. */
export function writeBrowserIndex(store: IndexStore, dir: string, options: BrowserIndexOptions = BROWSER_INDEX_DEFAULTS): BrowserIndexMeta {
  for (const file of [BROWSER_FILES.termShards, BROWSER_FILES.recordShards]) mkdirSync(dirname(join(dir, file)), { recursive: true });
  const firsts = writeTerms(store, dir, options);
  const recordShards = writeRecords(store, dir, options.recordsPerShard);
  const meta = BrowserIndexMeta.parse({
    format: BROWSER_INDEX_FORMAT,
    builtAt: new Date(store.builtAt).toISOString(),
    documentCount: store.documentCount,
    terms: { shards: firsts.length, firstTerms: BROWSER_FILES.firstTerms, file: BROWSER_FILES.termShards, postingsPerTerm: options.postingsPerTerm },
    records: { shards: recordShards, perShard: options.recordsPerShard, file: BROWSER_FILES.recordShards },
    analysis: ANALYSIS,
    module: BROWSER_FILES.module,
  });
  writeJson(dir, "meta.json", `${JSON.stringify(meta, null, 1)}\n`);
  return meta;
}
