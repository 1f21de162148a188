/**
 * The index as one SQLite file (better-sqlite3), read in place: the server opens it in
 * milliseconds and reads a term's postings, a word range or a record only when a search needs it,
 * so a million assets fit a small process. It holds exactly what the in-memory index computes
 * (core/index/store.ts MemoryStore), so both rank alike.
 */
import { rmSync } from "node:fs";
import Database from "better-sqlite3";
import { LRUCache } from "lru-cache";
import SearchableMap from "minisearch/SearchableMap";
import type { FilterKey } from "../model/filters.ts";
import { TIE_ORDER } from "../relevance/ranking.ts";
import { type Vocabulary, vocabularyOf } from "../relevance/term-table.ts";
import type { Asset } from "../schemas/index.ts";
import { COLUMN_NAMES, type Column, type Columns, type IndexStore, type MemoryStore, type Postings, type PostingsPiece } from "./store.ts";

/** The version of this file's layout, in its `meta` table: a change a reader of the previous one would misread takes a new one. */
export const INDEX_FILE_FORMAT = 1;
/** The tie order of the files written before their meta named it: the only one format 1 has had. */
const UNRECORDED_TIE_ORDER = "free, downloadable, id";

/** Numbers are stored in the machine's byte order, which is little-endian wherever Node runs in practice. */
const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE columns (name TEXT PRIMARY KEY, "values" TEXT NOT NULL, codes BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE terms (term TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE postings (term TEXT NOT NULL, source INTEGER NOT NULL, chunk INTEGER NOT NULL, count INTEGER NOT NULL, docs BLOB NOT NULL, saturations BLOB NOT NULL, PRIMARY KEY (term, source, chunk)) WITHOUT ROWID;
CREATE TABLE words (word TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE assets (doc INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, record TEXT NOT NULL);
`;

const bytesOf = (array: ArrayBufferView) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

/**
 * A source's postings of a term are stored in rows of this many, best first, so a search that reads
 * a source's best (core/index/search-index.ts BEST_POSTINGS_PER_SOURCE) reads those rows only: SQLite
 * reads a value whole, and a common word's postings over a million assets are megabytes.
 */
export const POSTINGS_ROW = 4096;

/** A typed array over a blob: a view when the blob's offset allows it, else a copy. */
function typed<T extends Uint16Array | Uint32Array | Float64Array>(
  blob: Buffer,
  Kind: { new (b: ArrayBuffer, o: number, l: number): T; BYTES_PER_ELEMENT: number },
): T {
  const size = Kind.BYTES_PER_ELEMENT;
  if (blob.byteOffset % size === 0) return new Kind(blob.buffer as ArrayBuffer, blob.byteOffset, blob.byteLength / size);
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Kind(copy.buffer, 0, blob.byteLength / size);
}

/** Writes `store` to `path` (replacing any file there), or when no path is given returns the file's bytes. */
export function writeIndexFile(path: string | undefined, store: MemoryStore): Buffer | undefined {
  if (path) rmSync(path, { force: true });
  const db = new Database(path ?? ":memory:");
  try {
    db.pragma("journal_mode = OFF");
    db.pragma("synchronous = OFF");
    db.exec(SCHEMA);
    db.transaction(() => {
      const meta = db.prepare("INSERT INTO meta VALUES (?, ?)");
      const facts = {
        format: INDEX_FILE_FORMAT,
        tieOrder: TIE_ORDER,
        builtAt: store.builtAt,
        documentCount: store.documentCount,
        averageLengths: store.averageLengths,
        carrying: store.carrying,
      };
      for (const [key, value] of Object.entries(facts)) meta.run(key, JSON.stringify(value));
      const column = db.prepare("INSERT INTO columns VALUES (?, ?, ?)");
      for (const name of COLUMN_NAMES) column.run(name, JSON.stringify(store.columns[name].values), bytesOf(store.columns[name].codes));
      const term = db.prepare("INSERT INTO terms VALUES (?, ?)");
      const chunk = db.prepare("INSERT INTO postings VALUES (?, ?, ?, ?, ?, ?)");
      for (const [t, postings] of store.terms) {
        term.run(t, store.documentFrequency(t));
        // A memory store holds each source's postings of a term in one piece.
        for (const [source, { pieces, count }] of postings.entries()) {
          const [piece] = pieces;
          for (let at = 0; piece && at < piece.docs.length; at += POSTINGS_ROW) {
            const rows = [piece.docs.subarray(at, at + POSTINGS_ROW), piece.saturations.subarray(at, at + POSTINGS_ROW)].map(bytesOf);
            chunk.run(t, source, at / POSTINGS_ROW, count, ...rows);
          }
        }
      }
      const word = db.prepare("INSERT INTO words VALUES (?)");
      for (const w of store.words.keys()) word.run(w);
      const record = db.prepare("INSERT INTO assets VALUES (?, ?, ?)");
      for (const [doc, a] of store.assets.entries()) record.run(doc, a.id, JSON.stringify(a));
    })();
    return path ? undefined : db.serialize();
  } finally {
    db.close();
  }
}

/**
 * How much a file store keeps of what it read lately: searches repeat their words and their
 * results, and reading a row and parsing a record again costs more than the rest of a search.
 */
const RECENT = { records: 20_000, postingsBytes: 32 * 2 ** 20, terms: 100_000, prefixedWords: 1_000_000 };

/** A term the file does not hold, remembered as such. */
const ABSENT: Postings = [];

const postingsBytes = (postings: Postings) =>
  postings.reduce((sum, s) => sum + s.pieces.reduce((n, p) => n + p.docs.byteLength + p.saturations.byteLength, 64), 64);

/** An index file, read in place. */
export class FileStore implements IndexStore {
  readonly builtAt: string;
  readonly documentCount: number;
  readonly averageLengths: number[];
  readonly carrying: Record<FilterKey, string[]>;
  readonly columns: Columns;
  readonly vocabulary: Vocabulary;
  private readonly db: Database.Database;
  private readonly statements;
  /** The words' radix tree, read from the file on the first typo look-up only. */
  private wordTree?: SearchableMap<true>;
  private readonly recentRecords = new LRUCache<number, Asset>({ max: RECENT.records });
  private readonly recentPostings = new LRUCache<string, Postings>({ maxSize: RECENT.postingsBytes, sizeCalculation: postingsBytes });
  private readonly recentFrequencies = new LRUCache<string, number>({ max: RECENT.terms });
  private readonly recentPrefixes = new LRUCache<string, string[]>({ maxSize: RECENT.prefixedWords, sizeCalculation: (words) => words.length + 1 });

  constructor(path: string) {
    this.db = new Database(path, { readonly: true, fileMustExist: true });
    // A published file never changes: one shared lock held for good spares every read its locking
    // and its check for another writer's journal (eight system calls per statement otherwise).
    this.db.pragma("locking_mode = EXCLUSIVE");
    const meta = new Map(
      (this.db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[]).map((r) => [r.key, JSON.parse(r.value) as unknown]),
    );
    if (meta.get("format") !== INDEX_FILE_FORMAT) {
      this.db.close();
      throw new Error(`${path} is an index file of format ${JSON.stringify(meta.get("format"))}; this server reads format ${INDEX_FILE_FORMAT}`);
    }
    const tieOrder = meta.get("tieOrder") ?? UNRECORDED_TIE_ORDER;
    if (tieOrder !== TIE_ORDER) {
      this.db.close();
      throw new Error(`${path} numbers its documents by the tie order ${JSON.stringify(tieOrder)}; this server ranks ties by "${TIE_ORDER}": rebuild it`);
    }
    this.builtAt = meta.get("builtAt") as string;
    this.documentCount = meta.get("documentCount") as number;
    this.averageLengths = meta.get("averageLengths") as number[];
    this.carrying = meta.get("carrying") as Record<FilterKey, string[]>;
    const rows = this.db.prepare('SELECT name, "values", codes FROM columns').all() as { name: string; values: string; codes: Buffer }[];
    this.columns = Object.fromEntries(
      rows.map((r): [string, Column] => [r.name, { values: JSON.parse(r.values) as string[], codes: typed(r.codes, Uint16Array) }]),
    ) as Columns;
    this.statements = {
      postings: this.db.prepare("SELECT source, count, docs, saturations FROM postings WHERE term = ? AND chunk < ? ORDER BY source, chunk"),
      df: this.db.prepare("SELECT df FROM terms WHERE term = ?").pluck(),
      prefixed: this.db.prepare("SELECT word FROM words WHERE word > ? AND word < ?").pluck(),
      words: this.db.prepare("SELECT word FROM words").pluck(),
      record: this.db.prepare("SELECT record FROM assets WHERE doc = ?").pluck(),
      doc: this.db.prepare("SELECT doc FROM assets WHERE id = ?").pluck(),
      records: this.db.prepare("SELECT record FROM assets ORDER BY doc").pluck(),
      terms: this.db.prepare("SELECT term FROM terms").pluck(),
    };
    const s = this.statements;
    this.vocabulary = {
      // Every word after the prefix and before the prefix followed by the highest code point.
      prefixed: (prefix) => {
        let words = this.recentPrefixes.get(prefix);
        if (!words) {
          words = s.prefixed.all(prefix, `${prefix}\u{10FFFF}`) as string[];
          this.recentPrefixes.set(prefix, words);
        }
        return words;
      },
      near: (term, distance) => vocabularyOf(this.words()).near(term, distance),
    };
  }

  private words(): SearchableMap<true> {
    if (!this.wordTree) {
      this.wordTree = new SearchableMap<true>();
      for (const w of this.statements.words.iterate() as Iterable<string>) this.wordTree.set(w, true);
    }
    return this.wordTree;
  }

  documentFrequency(term: string): number {
    let df = this.recentFrequencies.get(term);
    if (df === undefined) {
      df = (this.statements.df.get(term) as number | undefined) ?? 0;
      this.recentFrequencies.set(term, df);
    }
    return df;
  }

  postings(term: string, limit = Number.POSITIVE_INFINITY): Postings | undefined {
    const chunks = Number.isFinite(limit) ? Math.ceil(limit / POSTINGS_ROW) : Number.MAX_SAFE_INTEGER;
    const key = `${chunks} ${term}`;
    const recent = this.recentPostings.get(key);
    if (recent) return recent === ABSENT ? undefined : recent;
    const rows = this.statements.postings.all(term, chunks) as { source: number; count: number; docs: Buffer; saturations: Buffer }[];
    if (!rows.length) {
      this.recentPostings.set(key, ABSENT);
      return undefined;
    }
    const postings = this.columns.provider.values.map(() => ({ pieces: [] as PostingsPiece[], count: 0 }));
    for (const row of rows) {
      postings[row.source]!.count = row.count;
      postings[row.source]!.pieces.push({ docs: typed(row.docs, Uint32Array), saturations: typed(row.saturations, Float64Array) });
    }
    this.recentPostings.set(key, postings);
    return postings;
  }

  termNames(): Iterable<string> {
    return this.statements.terms.iterate() as Iterable<string>;
  }

  asset(doc: number): Asset {
    let asset = this.recentRecords.get(doc);
    if (!asset) {
      asset = JSON.parse(this.statements.record.get(doc) as string) as Asset;
      this.recentRecords.set(doc, asset);
    }
    return asset;
  }

  docOf(id: string): number | undefined {
    return this.statements.doc.get(id) as number | undefined;
  }

  *records(): Iterable<Asset> {
    for (const record of this.statements.records.iterate() as Iterable<string>) yield JSON.parse(record) as Asset;
  }
}
