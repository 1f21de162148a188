import SearchableMap from "minisearch/SearchableMap";
import { carries, FILTER_KEYS, type FilterKey } from "../model/filters.ts";
import { licenseKey } from "../model/license.ts";
import { type CorpusStats, fieldSaturation } from "../relevance/bm25.ts";
import { compareTies } from "../relevance/ranking.ts";
import { type Vocabulary, vocabularyOf } from "../relevance/term-table.ts";
import type { Asset } from "../schemas/index.ts";
import { analyze, FIELDS } from "../text/analyze.ts";

/** Documents holding a term and, for each, the term's weighted field saturation there (query-independent, so computed once). */
export interface PostingsPiece {
  docs: Uint32Array;
  saturations: Float64Array;
}

/**
 * A term's postings, per source code, best first (saturation, then document number), so a search
 * may read a source's best only, or skip a source it does not ask. `count`: how many documents of
 * the source hold the term, more than its pieces hold where a store read only the best.
 */
export type Postings = readonly { pieces: readonly PostingsPiece[]; count: number }[];

/** A term's postings as found in document order, arranged by source, best first (see Postings). */
function arranged(docs: readonly number[], saturations: readonly number[], source: Column): Postings {
  const bySource = source.values.map(() => [] as number[]);
  for (const [i, doc] of docs.entries()) bySource[source.codes[doc]!]!.push(i);
  return bySource.map((found) => {
    found.sort((i, j) => saturations[j]! - saturations[i]! || docs[i]! - docs[j]!);
    const piece = { docs: Uint32Array.from(found, (i) => docs[i]!), saturations: Float64Array.from(found, (i) => saturations[i]!) };
    return { pieces: found.length ? [piece] : [], count: found.length };
  });
}

/**
 * What the index reads of a record without the record, one small number per document: a column's
 * values once each, and per document the code of its value. Filters, the type signal and counts
 * read these, so a search touches a record only to return it.
 */
export const COLUMNS = {
  provider: (a: Asset) => a.provider,
  type: (a: Asset) => a.type,
  free: (a: Asset) => String(a.price?.free === true),
  downloadable: (a: Asset) => String(a.downloadable),
  license: (a: Asset) => (a.license ? licenseKey(a.license) : ""),
} as const;
export type ColumnName = keyof typeof COLUMNS;
export const COLUMN_NAMES = Object.keys(COLUMNS) as ColumnName[];

export interface Column {
  values: string[];
  codes: Uint16Array;
}
export type Columns = Record<ColumnName, Column>;

/**
 * A built index, wherever it lives (in memory, or an index file read in place: core/index/file.ts).
 * Documents are numbered in tie order (compareTies): equal keys of the ranking fall back on the number.
 */
export interface IndexStore extends CorpusStats {
  readonly builtAt: string;
  readonly columns: Columns;
  /** Per filter key, the sources some record of which carries its field. */
  readonly carrying: Readonly<Record<FilterKey, readonly string[]>>;
  /** The records' words, without the pairs written together: prefixes and typos are looked up here. */
  readonly vocabulary: Vocabulary;
  /** A term's postings: of each source at least its best `limit` (all of them without a limit). */
  postings(term: string, limit?: number): Postings | undefined;
  /** Every term the store holds postings of, in no particular order. */
  termNames(): Iterable<string>;
  asset(doc: number): Asset;
  docOf(id: string): number | undefined;
  /** Every record, in document order. */
  records(): Iterable<Asset>;
}

function columnOf(assets: readonly Asset[], read: (a: Asset) => string): Column {
  const codeOf = new Map<string, number>();
  const codes = new Uint16Array(assets.length);
  assets.forEach((a, i) => {
    const value = read(a);
    if (!codeOf.has(value)) codeOf.set(value, codeOf.size);
    codes[i] = codeOf.get(value)!;
  });
  return { values: [...codeOf.keys()], codes };
}

const columnsOf = (assets: readonly Asset[]): Columns => Object.fromEntries(COLUMN_NAMES.map((name) => [name, columnOf(assets, COLUMNS[name])])) as Columns;

const carryingOf = (assets: readonly Asset[]): Record<FilterKey, string[]> =>
  Object.fromEntries(FILTER_KEYS.map((key) => [key, [...new Set(assets.filter((a) => carries(a, key)).map((a) => a.provider))].sort()])) as Record<
    FilterKey,
    string[]
  >;

/** A store of records held in memory, analysed once when built; one record per id, the last of a repeated id kept. */
export class MemoryStore implements IndexStore {
  readonly assets: Asset[];
  readonly averageLengths: number[];
  readonly columns: Columns;
  readonly carrying: Record<FilterKey, string[]>;
  readonly vocabulary: Vocabulary;
  /** The terms with their postings, in a radix tree (its order is what an index file lists them in). */
  readonly terms = new SearchableMap<Postings>();
  readonly words = new SearchableMap<true>();
  private readonly byId: Map<string, number>;

  constructor(
    assets: readonly Asset[],
    readonly builtAt: string,
  ) {
    this.assets = [...new Map(assets.map((a) => [a.id, a])).values()].sort(compareTies);
    this.byId = new Map(this.assets.map((a, i) => [a.id, i]));
    const docs = this.assets.map(analyze);
    this.averageLengths = FIELDS.map((_, f) => docs.reduce((sum, d) => sum + d.lengths[f]!, 0) / Math.max(docs.length, 1));
    const lists = new Map<string, { docs: number[]; saturations: number[] }>();
    docs.forEach((doc, i) => {
      for (const word of doc.words) this.words.set(word, true);
      for (const [term, counts] of doc.terms) {
        const saturation = fieldSaturation(counts, doc.lengths, this);
        const list = lists.get(term);
        if (list) {
          list.docs.push(i);
          list.saturations.push(saturation);
        } else lists.set(term, { docs: [i], saturations: [saturation] });
      }
    });
    this.columns = columnsOf(this.assets);
    for (const [term, list] of lists) this.terms.set(term, arranged(list.docs, list.saturations, this.columns.provider));
    this.carrying = carryingOf(this.assets);
    this.vocabulary = vocabularyOf(this.words);
  }

  get documentCount(): number {
    return this.assets.length;
  }

  documentFrequency(term: string): number {
    return this.terms.get(term)?.reduce((sum, s) => sum + s.count, 0) ?? 0;
  }

  termNames(): Iterable<string> {
    return this.terms.keys();
  }

  postings(term: string): Postings | undefined {
    return this.terms.get(term);
  }

  asset(doc: number): Asset {
    return this.assets[doc]!;
  }

  docOf(id: string): number | undefined {
    return this.byId.get(id);
  }

  records(): Iterable<Asset> {
    return this.assets;
  }
}
