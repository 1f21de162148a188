/**
 * The one builder of `index.meta.json`: the pipeline writes it with every set (pipeline/publish.ts)
 * and the server computes it for the live set it serves (server/static/publication.ts), so both
 * describe the same engine, counts and files the same way.
 */
import { INDEX_FILE_FORMAT } from "../index/file.ts";
import { SCORING } from "../relevance/scoring.ts";
import type { Asset } from "../schemas/index.ts";
import { FIELDS } from "../text/analyze.ts";
import { SYNONYM_GROUPS } from "../text/synonyms.ts";
import { type FileInfo, fileInfo, INDEX_FILE, IndexMeta, PUBLICATION_VERSION, PUBLISHED_FILES, type SetFiles } from "./published.ts";

/**
 * What reads `index.json.gz` and how: the text analysis of core/text/ that the server applies to
 * the records when it loads them. A reader (a browser with MiniSearch, another service) applies
 * the same to find what the server finds.
 */
export const ENGINE: IndexMeta["engine"] = {
  name: "asset-search AssetIndex (core/index/search-index.ts): the records are analysed when loaded",
  analysis: {
    fields: [...FIELDS],
    fieldWeights: { ...SCORING.fields },
    split: "at whitespace, punctuation, symbols and underscores, and between camelCase humps (ArmChair_01 → arm chair 01)",
    folding: "lower case, NFKD, combining marks removed (Café → cafe)",
    stemmer: "porter2",
    stemmerSkips: "words holding a digit are kept as they are (01, 4k)",
    pairs: "each two adjacent words of a run (a title, one tag) are also indexed written together, stemmed (low poly → lowpoli)",
    synonyms: { table: "SYNONYM_GROUPS (core/text/synonyms.ts)", groups: SYNONYM_GROUPS.length, appliedAt: "query time" },
    bm25: { ...SCORING.bm25 },
  },
};

/** Indexed assets per source id, ids in code-point order so the meta's bytes depend on the counts only. */
export const assetCounts = (assets: Iterable<Pick<Asset, "provider">>): IndexMeta["counts"] => {
  const bySource = new Map<string, number>();
  for (const a of assets) bySource.set(a.provider, (bySource.get(a.provider) ?? 0) + 1);
  return countsOf(bySource);
};

/** The meta's counts from the number of assets of each source. */
export function countsOf(bySource: ReadonlyMap<string, number>): IndexMeta["counts"] {
  const ids = [...bySource.keys()].filter((id) => bySource.get(id)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { assets: ids.reduce((sum, id) => sum + bySource.get(id)!, 0), sources: Object.fromEntries(ids.map((id) => [id, bySource.get(id)!])) };
}

/** The size and sha256 of each file of a set, by its name, the index file's when there is one. */
export const setFileInfos = (files: Record<keyof SetFiles, string | Buffer> & { indexFile?: Buffer }): Record<string, FileInfo> => ({
  ...Object.fromEntries(Object.entries(PUBLISHED_FILES).map(([key, name]) => [name, fileInfo(files[key as keyof SetFiles])])),
  ...(files.indexFile ? { [INDEX_FILE]: fileInfo(files.indexFile) } : {}),
});

/** How the meta describes the index file (core/index/file.ts). */
const INDEX_FILE_META: NonNullable<IndexMeta["indexFile"]> = {
  name: INDEX_FILE,
  format: INDEX_FILE_FORMAT,
  engine:
    "SQLite 3 (better-sqlite3), read in place: tables meta, columns (per-document codes), terms (postings with their field saturations, by source, best first), words, assets (the records as JSON); written by core/index/file.ts",
};

/** The meta of a set: its build time, the engine, its counts and every other file's size and sha256 (by name). */
export function buildMeta(files: Record<string, FileInfo>, builtAt: string, counts: IndexMeta["counts"]): IndexMeta {
  const indexFile = INDEX_FILE in files ? { indexFile: INDEX_FILE_META } : {};
  return IndexMeta.parse({ format: PUBLICATION_VERSION, builtAt: new Date(builtAt).toISOString(), engine: ENGINE, counts, files, ...indexFile });
}

/** The meta file's bytes: zod's parse keeps the schema's key order, so the same meta is the same bytes. */
export const metaJson = (meta: IndexMeta): string => `${JSON.stringify(meta, null, 1)}\n`;
