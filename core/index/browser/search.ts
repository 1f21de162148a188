/**
 * Searches a publication's browser index from a page (bundled as `<base>/v1/browser/search.js` by
 * `npm run publication`; nothing here needs Node). A query is read as the server reads it
 * (core/relevance/query-plan.ts: its words stemmed, adjacent words written together, synonyms; type words
 * not required), each term is looked up in the one shard holding it, and the documents are ranked
 * by text as the server's index ranks them: those holding every required word first, then those
 * holding most of them, each by the sum over its terms of the match's weight (SCORING.kinds) times
 * BM25's IDF times the term's saturation there. No typos, prefixes or type boost. Only the records
 * of the page shown are fetched. Shards are kept once fetched.
 */

import { planQuery } from "../../relevance/query-plan.ts";
import { SCORING } from "../../relevance/scoring.ts";
import { BROWSER_DIR, BROWSER_INDEX_FORMAT, recordShardFile, type TermEntry, termShardFile } from "../../schemas/browser-format.ts";
import type { BrowserIndexMeta, BrowserRecord } from "../../schemas/browser-index.ts";

export interface BrowserHit {
  record: BrowserRecord;
  /** How many of the query's required words the document holds (a pair written together or a synonym phrase holds all it stands for). */
  words: number;
  score: number;
}

export interface BrowserResults {
  /** Documents holding at least one query term among the postings kept (a lower bound for broad words). */
  total: number;
  hits: BrowserHit[];
}

export interface BrowserIndex {
  meta: BrowserIndexMeta;
  search(query: string, limit?: number): Promise<BrowserResults>;
}

type Get = (url: string) => Promise<Response>;

/** The last index whose first term is at most `term`; -1 when `term` sorts before them all. */
function shardOf(firsts: readonly string[], term: string): number {
  let low = 0;
  let high = firsts.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (firsts[mid]! <= term) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/** A cache of fetched JSON files by number: one request per file, however many searches ask at once. */
function fileCache<T>(load: (n: number) => Promise<T>) {
  const files = new Map<number, Promise<T>>();
  return (n: number): Promise<T> => {
    let file = files.get(n);
    if (!file) {
      file = load(n);
      files.set(n, file);
      // A failed fetch is asked again next time.
      file.catch(() => files.delete(n));
    }
    return file;
  };
}

/**
 * Opens the browser index of the publication at `base` (`<base>/v1/browser/`): reads its meta and
 * the shards' first terms. Throws when the folder's format is not the one this module reads.
 */
export async function openBrowserIndex(base: string, get: Get = (url) => fetch(url)): Promise<BrowserIndex> {
  const root = `${base.replace(/\/+$/, "")}/v1/${BROWSER_DIR}`;
  const json = async <T>(file: string): Promise<T> => {
    const res = await get(`${root}/${file}`);
    if (!res.ok) throw new Error(`${root}/${file}: HTTP ${res.status}`);
    return (await res.json()) as T;
  };
  const meta = await json<BrowserIndexMeta>("meta.json");
  if (meta.format !== BROWSER_INDEX_FORMAT) {
    throw new Error(`${root}/meta.json is of format ${JSON.stringify(meta.format)}; this module reads format ${BROWSER_INDEX_FORMAT}`);
  }
  const firsts = await json<string[]>(meta.terms.firstTerms);
  const termShard = fileCache((n) => json<Record<string, TermEntry>>(termShardFile(n)));
  const recordShard = fileCache((n) => json<BrowserRecord[]>(recordShardFile(n)));

  const entryOf = async (term: string): Promise<TermEntry | undefined> => {
    const shard = shardOf(firsts, term);
    if (shard < 0) return undefined;
    const entries = await termShard(shard);
    return Object.hasOwn(entries, term) ? entries[term] : undefined;
  };
  const idf = (df: number) => Math.log(1 + (meta.documentCount - df + 0.5) / (df + 0.5));
  const record = async (doc: number) => (await recordShard(Math.floor(doc / meta.records.perShard)))[doc % meta.records.perShard]!;

  async function search(query: string, limit = 20): Promise<BrowserResults> {
    const plan = planQuery(query);
    const terms = [...new Set(plan.expansions.map((e) => e.term))];
    const entries = new Map(await Promise.all(terms.map(async (term) => [term, await entryOf(term)] as const)));
    const found = new Map<number, { held: Set<number>; score: number }>();
    for (const { term, kind, words } of plan.expansions) {
      const entry = entries.get(term);
      if (!entry) continue;
      const [df, docs, saturations] = entry;
      const weight = SCORING.kinds[kind] * idf(df);
      const required = words.filter((w) => plan.words[w]!.required);
      docs.forEach((doc, i) => {
        const hit = found.get(doc) ?? { held: new Set<number>(), score: 0 };
        found.set(doc, hit);
        for (const w of required) hit.held.add(w);
        hit.score += weight * saturations[i]!;
      });
    }
    const ranked = [...found]
      .map(([doc, { held, score }]) => ({ doc, words: held.size, score }))
      .sort((a, b) => b.words - a.words || b.score - a.score || a.doc - b.doc)
      .slice(0, limit);
    const records = await Promise.all(ranked.map((r) => record(r.doc)));
    return { total: found.size, hits: ranked.map((r, i) => ({ record: records[i]!, words: r.words, score: r.score })) };
  }

  return { meta, search };
}
