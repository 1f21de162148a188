import { gunzipSync, gzipSync } from "node:zlib";
import type { FilterKey } from "../model/filters.ts";
import type { CorpusStats } from "../relevance/bm25.ts";
import { BROWSE_MATCH, type DocMatch, keeps, MatchTable, NO_MATCH, wordWeights } from "../relevance/match.ts";
import { planQuery, type QueryPlan } from "../relevance/query-plan.ts";
import { orderKey } from "../relevance/ranking.ts";
import { type TermUse, termTable } from "../relevance/term-table.ts";
import { isOfTypes, isWished, type TypeWish, typeWish } from "../relevance/type-match.ts";
import type { BrowserIndexMeta } from "../schemas/browser-index.ts";
import type { Asset, AssetType } from "../schemas/index.ts";
import { type BrowserIndexOptions, writeBrowserIndex } from "./browser/write.ts";
import { FileStore, POSTINGS_ROW, writeIndexFile } from "./file.ts";
import { type ColumnName, type IndexStore, MemoryStore } from "./store.ts";

export interface IndexFilter {
  providers?: ReadonlySet<string>;
  types?: ReadonlySet<AssetType>;
  /** Sources whose listings are packs: with "pack" in `types`, all their assets match (isOfTypes). */
  packProviders?: ReadonlySet<string>;
  free?: boolean;
  downloadable?: boolean;
  /** Any further condition (the search's filters, core/model/filters.ts): it reads the record. */
  keep?: (asset: Asset) => boolean;
}

export interface IndexHit {
  asset: Asset;
  match: DocMatch;
}

/**
 * How many postings of a term a bounded search reads per source: the source's best for the term
 * (core/index/store.ts Postings), two rows of an index file. Past it a broad word over a large
 * index would cost a search more than the page it fills; below it (every term of the embedded
 * catalogue) nothing changes.
 */
export const BEST_POSTINGS_PER_SOURCE = 2 * POSTINGS_ROW;

/** `limit`: read at most this many postings of a term per source, its best (the totals become lower bounds where that cuts); no limit by default. */
export interface FindOptions {
  wish?: TypeWish;
  limit?: number;
}

/** What `related` reads: of each source at most `perSource` postings of a term; it returns the `pool` best documents, never the one of the id `skip`. */
export interface RelatedOptions {
  perSource: number;
  pool: number;
  filter?: IndexFilter;
  skip?: string;
}

/** How one search reads postings (AssetIndex.accumulate). */
interface Accumulation {
  matches: MatchTable;
  /** Whether a document the term holds opens a slot (when it passes), or the term only adds to the slots others opened. */
  opens: boolean;
  passes: (doc: number) => boolean;
  /** The documents given a slot or refused, to be reset after the search. */
  touched: number[];
  sources: readonly boolean[];
  limit: number;
  cut: Set<number>;
}

/** An asset found by its type alone, by a query of type words only. */
const TYPE_MATCH: DocMatch = { coverage: 1, exactCoverage: 1, quality: 0, text: 0, words: 0, held: 0 };
const NO_PACKS: ReadonlySet<string> = new Set();
/** No type signal: what `related` filters with. */
const NO_WISH: TypeWish = { types: new Set(), packProviders: NO_PACKS };
/** A hit's slot when its match is not in the match table. */
const TYPE_SLOT = -1;
const BROWSE_SLOT = -2;
/** A filter that keeps every document: tested for, so that a plain search makes no call per document. */
const ANY = (_doc: number) => true;
/** A document no term of this search has reached yet, or one the filter refused. */
const UNSEEN = -1;
const REFUSED = -2;

/** Per document, from the columns alone: whether it passes the filter's plain conditions and whether the type signal wishes it. */
function docTests(store: IndexStore, filter: IndexFilter, wish: TypeWish) {
  const { provider, type, free, downloadable } = store.columns;
  const types = type.values as AssetType[];
  const sourceOk = provider.values.map((p) => !filter.providers || filter.providers.has(p));
  const wanted = filter.types;
  const typeOk = provider.values.map((p) => types.map((t) => !wanted || isOfTypes({ type: t, provider: p }, wanted, filter.packProviders ?? NO_PACKS)));
  const freeOk = free.values.map((v) => !filter.free || v === "true");
  const downloadableOk = downloadable.values.map((v) => !filter.downloadable || v === "true");
  const wished = provider.values.map((p) => types.map((t) => isWished({ type: t, provider: p }, wish)));
  const wishedDoc = (doc: number): boolean => wished[provider.codes[doc]!]![type.codes[doc]!]!;
  const { keep } = filter;
  /** The conditions past the source's: ANY when there are none. */
  const passesInSource =
    filter.types || filter.free || filter.downloadable || keep
      ? (doc: number): boolean =>
          typeOk[provider.codes[doc]!]![type.codes[doc]!]! &&
          freeOk[free.codes[doc]!]! &&
          downloadableOk[downloadable.codes[doc]!]! &&
          (!keep || keep(store.asset(doc)))
      : ANY;
  return {
    /** Per source code, whether the filter lets it through: the postings of the others are skipped. */
    sources: sourceOk,
    passesInSource,
    passes: (doc: number): boolean => sourceOk[provider.codes[doc]!]! && passesInSource(doc),
    wished: wishedDoc,
    /** core/relevance/ranking.ts typeScore, from the columns. */
    typeScore: (doc: number): number => (wish.types.size === 0 || wishedDoc(doc) ? 1 : 0),
  };
}

/**
 * The hits of one search: document numbers, their matches' slots and their keys in the one index
 * ranking (core/relevance/ranking.ts orderKey). Records are read only for the hits asked for, so a broad
 * query over a large index costs its postings, not its records.
 */
export class IndexResult {
  private docs = new Int32Array(64);
  private slots = new Int32Array(64);
  private keys = new Float64Array(64);
  private size = 0;
  /** Hits holding every required word: whether typos are worth a look (core/relevance/query-plan.ts gateTypos). */
  complete = 0;
  /** Codes of the sources some term's postings were cut for (a bounded search). */
  readonly cut = new Set<number>();
  /** Hits per source code. */
  private readonly counts: number[];

  constructor(
    private readonly store: IndexStore,
    private readonly matchOf: (slot: number) => DocMatch = () => NO_MATCH,
  ) {
    this.counts = new Array<number>(store.columns.provider.values.length).fill(0);
  }

  add(doc: number, slot: number, key: number, complete: boolean): void {
    if (this.size === this.docs.length) this.grow();
    this.docs[this.size] = doc;
    this.slots[this.size] = slot;
    this.keys[this.size] = key;
    this.size++;
    this.counts[this.store.columns.provider.codes[doc]!]!++;
    if (complete) this.complete++;
  }

  private grow(): void {
    const docs = new Int32Array(this.size * 2);
    docs.set(this.docs);
    this.docs = docs;
    const slots = new Int32Array(this.size * 2);
    slots.set(this.slots);
    this.slots = slots;
    const keys = new Float64Array(this.size * 2);
    keys.set(this.keys);
    this.keys = keys;
  }

  get count(): number {
    return this.size;
  }

  /** How many hits each source has. */
  totals(): Map<string, number> {
    return new Map(this.store.columns.provider.values.map((v, i) => [v, this.counts[i]!] as const).filter(([, n]) => n > 0));
  }

  /** The sources whose totals are lower bounds: a bounded search left some of their postings unread. */
  atLeast(): Set<string> {
    return new Set([...this.cut].map((c) => this.store.columns.provider.values[c]!));
  }

  /** Best first; equal keys in document order, which is tie order. */
  private readonly compare = (i: number, j: number) => this.keys[i]! - this.keys[j]! || this.docs[i]! - this.docs[j]!;

  private hits(order: number[]): IndexHit[] {
    const match = (slot: number) => (slot === TYPE_SLOT ? TYPE_MATCH : slot === BROWSE_SLOT ? BROWSE_MATCH : this.matchOf(slot));
    return order.map((i) => ({ asset: this.store.asset(this.docs[i]!), match: match(this.slots[i]!) }));
  }

  /** Every hit, best first. */
  all(): IndexHit[] {
    return this.hits(Array.from({ length: this.size }, (_, i) => i).sort(this.compare));
  }

  /**
   * The first `n` hits of each source, best first. Each source keeps its best in a buffer cut back
   * to `n` whenever it grows past twice that, and once it holds `n`, a hit not better than its
   * `n`-th is passed over at once: no sort of every hit.
   */
  top(n: number): IndexHit[] {
    if (n <= 0) return [];
    const { codes } = this.store.columns.provider;
    const bests = new Map<number, { kept: number[]; bar: number }>();
    const cut = (best: { kept: number[]; bar: number }) => {
      best.kept.sort(this.compare).splice(n);
      if (best.kept.length === n) best.bar = best.kept[n - 1]!;
    };
    for (let i = 0; i < this.size; i++) {
      const source = codes[this.docs[i]!]!;
      let best = bests.get(source);
      if (!best) {
        best = { kept: [], bar: -1 };
        bests.set(source, best);
      }
      if (best.bar >= 0 && this.compare(i, best.bar) >= 0) continue;
      best.kept.push(i);
      if (best.kept.length >= 2 * n + 16) cut(best);
    }
    const kept: number[] = [];
    for (const best of bests.values()) {
      cut(best);
      kept.push(...best.kept);
    }
    return this.hits(kept.sort(this.compare));
  }
}

/**
 * The index of the indexed sources over a store (core/index/store.ts): records held in memory, or
 * an index file read in place (core/index/file.ts). Both hold the same terms, postings and
 * statistics text relevance reads (CorpusStats), so a search ranks alike on either.
 */
export class AssetIndex implements CorpusStats {
  /**
   * Per document, its slot in the current search's match table, else UNSEEN or REFUSED; one array
   * for every search (searches run one at a time: they never wait), reset after each.
   */
  private readonly slotOf: Int32Array;
  private readonly counted = new Map<ColumnName, Map<string, number>>();
  /** sourcesCarrying's sets, made once: a search with filters asks them for every indexed source. */
  private readonly carrying = new Map<FilterKey, ReadonlySet<string>>();
  /** Per document, its overlap in the current `related` call (0 untouched, -1 refused); made on the first call, reset after each. */
  private overlaps?: Float64Array;

  private constructor(private readonly store: IndexStore) {
    this.slotOf = new Int32Array(store.documentCount).fill(UNSEEN);
  }

  /** One record per id: the last of a repeated id is kept. */
  static build(assets: readonly Asset[], builtAt = new Date().toISOString()): AssetIndex {
    return new AssetIndex(new MemoryStore(assets, builtAt));
  }

  static empty(): AssetIndex {
    return AssetIndex.build([], new Date(0).toISOString());
  }

  /** Reads `index.json.gz` as written by `serialize`. */
  static deserialize(gz: Buffer): AssetIndex {
    const data = JSON.parse(gunzipSync(gz).toString("utf8")) as { builtAt: string; assets: Asset[] };
    return AssetIndex.build(data.assets, data.builtAt);
  }

  /** An index file written by `write`, read in place. */
  static open(path: string): AssetIndex {
    return new AssetIndex(new FileStore(path));
  }

  /**
   * The records only: the terms are rebuilt when loaded, so a change of text analysis needs no new
   * file. Written record by record: the whole JSON of a million records is longer than a string
   * can be, the same bytes as one JSON.stringify otherwise.
   */
  serialize(): Buffer {
    const pieces = [Buffer.from(`{"builtAt":${JSON.stringify(this.builtAt)},"assets":[`)];
    let first = true;
    for (const asset of this.store.records()) {
      pieces.push(Buffer.from(`${first ? "" : ","}${JSON.stringify(asset)}`));
      first = false;
    }
    pieces.push(Buffer.from("]}"));
    return gzipSync(Buffer.concat(pieces));
  }

  /** Writes the browser index (core/index/browser/write.ts) of this index into `dir`. */
  writeBrowserIndex(dir: string, options?: BrowserIndexOptions): BrowserIndexMeta {
    return writeBrowserIndex(this.store, dir, options);
  }

  /** Writes the index file (core/index/file.ts) of this index at `path`. */
  write(path: string): void {
    writeIndexFile(path, this.memoryStore());
  }

  /** The index file's bytes. */
  fileBytes(): Buffer {
    return writeIndexFile(undefined, this.memoryStore())!;
  }

  private memoryStore(): MemoryStore {
    return this.store instanceof MemoryStore ? this.store : new MemoryStore([...this.store.records()], this.builtAt);
  }

  get builtAt(): string {
    return this.store.builtAt;
  }

  get documentCount(): number {
    return this.store.documentCount;
  }

  get averageLengths(): readonly number[] {
    return this.store.averageLengths;
  }

  documentFrequency(term: string): number {
    return this.store.documentFrequency(term);
  }

  get(id: string): Asset | undefined {
    const doc = this.store.docOf(id);
    return doc === undefined ? undefined : this.store.asset(doc);
  }

  /** Every record, in tie order. */
  records(): Iterable<Asset> {
    return this.store.records();
  }

  /** How many records hold each value of a column (core/index/store.ts COLUMNS): per source, per licence. */
  countBy(column: ColumnName): ReadonlyMap<string, number> {
    let counts = this.counted.get(column);
    if (!counts) {
      const { values, codes } = this.store.columns[column];
      const n = new Array<number>(values.length).fill(0);
      for (const code of codes) n[code]!++;
      counts = new Map(values.map((v, i) => [v, n[i]!]));
      this.counted.set(column, counts);
    }
    return counts;
  }

  /** The sources of which some record carries the field `key` reads (core/model/filters.ts). */
  sourcesCarrying(key: FilterKey): ReadonlySet<string> {
    let sources = this.carrying.get(key);
    if (!sources) {
      sources = new Set(this.store.carrying[key]);
      this.carrying.set(key, sources);
    }
    return sources;
  }

  /**
   * The documents holding some of `terms` and passing `filter`, each with its overlap: the sum over
   * the terms it holds of the term's weight times its saturation there; the `pool` best, best first
   * (equal overlaps in document order), `skip` left out. Of each source at most `perSource` postings
   * of a term are read, its best, so the cost is bounded by the terms, not by the index
   * (core/search/similar.ts gathers an asset's related candidates with it).
   */
  related(terms: ReadonlyMap<string, number>, options: RelatedOptions): { asset: Asset; overlap: number }[] {
    const tests = docTests(this.store, options.filter ?? {}, NO_WISH);
    const skip = options.skip === undefined ? undefined : this.store.docOf(options.skip);
    this.overlaps ??= new Float64Array(this.documentCount);
    const { overlaps } = this;
    const touched: number[] = [];
    try {
      for (const [term, weight] of terms) {
        this.store.postings(term, options.perSource)?.forEach(({ pieces }, source) => {
          if (!tests.sources[source]) return;
          let left = options.perSource;
          for (const { docs, saturations } of pieces) {
            const end = Math.min(docs.length, left);
            left -= end;
            for (let j = 0; j < end; j++) {
              const doc = docs[j]!;
              if (overlaps[doc] === 0) {
                if (doc === skip || !tests.passesInSource(doc)) {
                  overlaps[doc] = -1;
                  touched.push(doc);
                  continue;
                }
                touched.push(doc);
              } else if (overlaps[doc]! < 0) continue;
              overlaps[doc]! += weight * saturations[j]!;
            }
          }
        });
      }
      const better = (a: number, b: number) => overlaps[b]! - overlaps[a]! || a - b;
      let kept: number[] = [];
      let bar = -1;
      for (const doc of touched) {
        if (overlaps[doc]! <= 0 || (bar >= 0 && better(doc, bar) >= 0)) continue;
        kept.push(doc);
        if (kept.length >= 2 * options.pool + 16) {
          kept = kept.sort(better).slice(0, options.pool);
          bar = kept[kept.length - 1]!;
        }
      }
      return kept
        .sort(better)
        .slice(0, options.pool)
        .map((doc) => ({ asset: this.store.asset(doc), overlap: overlaps[doc]! }));
    } finally {
      for (const doc of touched) overlaps[doc] = 0;
    }
  }

  /** Every hit of `find`, best first. */
  search(query: string | QueryPlan, filter: IndexFilter = {}, wish?: TypeWish): IndexHit[] {
    return this.find(query, filter, { wish }).all();
  }

  /**
   * The assets the plan finds, each with its match, for the one index ranking: those holding enough
   * of the required words (`keeps`), with typos only when the plan says so. A query without words
   * finds every asset; one of type words only, every asset of the wished types and every asset
   * holding one of the words. `wish` defaults to the type words' types.
   */
  find(query: string | QueryPlan, filter: IndexFilter = {}, options: FindOptions = {}): IndexResult {
    const plan = typeof query === "string" ? planQuery(query) : query;
    const tests = docTests(this.store, filter, options.wish ?? typeWish([], plan, new Set()));
    if (!plan.words.length) return this.browsing(tests);
    return this.matching(plan, tests, options.limit ?? Number.POSITIVE_INFINITY);
  }

  private browsing(tests: ReturnType<typeof docTests>): IndexResult {
    const result = new IndexResult(this.store);
    for (let doc = 0; doc < this.documentCount; doc++) {
      if (tests.passes(doc)) result.add(doc, BROWSE_SLOT, orderKey(BROWSE_MATCH, tests.typeScore(doc)), true);
    }
    return result;
  }

  /**
   * Term by term over the postings of the terms the plan meets. While some word is required, terms
   * standing only for type words add to the documents other terms found but find none themselves.
   */
  private matching(plan: QueryPlan, tests: ReturnType<typeof docTests>, limit: number): IndexResult {
    const anyRequired = plan.words.some((w) => w.required);
    const matches = new MatchTable(plan.words.length, 64);
    const weights = wordWeights(plan, this);
    const result = new IndexResult(this.store, (slot) => matches.finish(slot, plan, weights));
    const { slotOf } = this;
    const touched: number[] = [];
    try {
      const table = [...termTable(plan, this.store.vocabulary)];
      const finds = (uses: TermUse[]) => !anyRequired || uses.some((u) => u.words.some((w) => plan.words[w]!.required));
      const read = { matches, passes: tests.passesInSource, touched, sources: tests.sources, limit, cut: result.cut };
      for (const [term, uses] of table.filter(([, uses]) => finds(uses))) this.accumulate(term, uses, { ...read, opens: true });
      // Terms that find nothing add to what the others found: their cut changes no total.
      for (const [term, uses] of table.filter(([, uses]) => !finds(uses))) this.accumulate(term, uses, { ...read, opens: false, cut: new Set() });

      const kept = keeps(plan);
      const match = { ...NO_MATCH };
      for (const doc of touched) {
        const slot = slotOf[doc]!;
        if (slot < 0 || !kept(matches.finish(slot, plan, weights, match, false))) continue;
        result.add(doc, slot, orderKey(match, tests.typeScore(doc)), match.coverage === 1);
      }
      if (!anyRequired) {
        const typeKey = (doc: number) => orderKey(TYPE_MATCH, tests.typeScore(doc));
        for (let doc = 0; doc < this.documentCount; doc++) {
          if (slotOf[doc] === UNSEEN && tests.wished(doc) && tests.passes(doc)) result.add(doc, TYPE_SLOT, typeKey(doc), true);
        }
      }
    } finally {
      for (const doc of touched) slotOf[doc] = UNSEEN;
    }
    return result;
  }

  /** A term's postings into the match table: of each source asked, its first `limit` (its best), the sources cut for noted. */
  private accumulate(term: string, uses: TermUse[], read: Accumulation): void {
    const postings = this.store.postings(term, read.limit);
    if (!postings) return;
    // Locals, not the objects' fields: this loop runs once per posting.
    const { slotOf } = this;
    const { matches, opens, passes, touched } = read;
    postings.forEach(({ pieces, count }, source) => {
      if (!read.sources[source]) return;
      let taken = 0;
      for (const { docs, saturations } of pieces) {
        const end = Math.min(docs.length, read.limit - taken);
        taken += end;
        for (let j = 0; j < end; j++) {
          const doc = docs[j]!;
          let slot = slotOf[doc]!;
          if (slot === UNSEEN && opens) {
            slot = passes === ANY || passes(doc) ? matches.open() : REFUSED;
            slotOf[doc] = slot;
            touched.push(doc);
          }
          if (slot < 0) continue;
          for (let u = 0; u < uses.length; u++) matches.add(slot, uses[u]!, saturations[j]!);
        }
      }
      if (taken < count) read.cut.add(source);
    });
  }
}
