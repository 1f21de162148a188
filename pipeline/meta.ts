import { fileInfo, IndexMeta, PUBLICATION_VERSION, PUBLISHED_FILES, type SetFiles } from "../core/published.ts";
import type { Asset } from "../core/schemas/index.ts";
import { SCORING } from "../core/scoring.ts";
import { FIELDS } from "../core/text/analyze.ts";
import { SYNONYM_GROUPS } from "../core/text/synonyms.ts";

/**
 * What reads `index.json.gz` and how: the text analysis of core/text/ that the server applies to
 * the records when it loads them. A reader (a browser with MiniSearch, another service) applies
 * the same to find what the server finds.
 */
export const ENGINE: IndexMeta["engine"] = {
  name: "asset-search AssetIndex (core/search-index.ts): the records are analysed when loaded",
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
export function assetCounts(assets: readonly Pick<Asset, "provider">[]): IndexMeta["counts"] {
  const bySource = new Map<string, number>();
  for (const a of assets) bySource.set(a.provider, (bySource.get(a.provider) ?? 0) + 1);
  const ids = [...bySource.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { assets: assets.length, sources: Object.fromEntries(ids.map((id) => [id, bySource.get(id)!])) };
}

/** The meta of a set: its build time, the engine, its counts and every other file's size and sha256. */
export function buildMeta(files: Record<keyof SetFiles, string | Buffer>, builtAt: string, counts: IndexMeta["counts"]): IndexMeta {
  return IndexMeta.parse({
    format: PUBLICATION_VERSION,
    builtAt: new Date(builtAt).toISOString(),
    engine: ENGINE,
    counts,
    files: Object.fromEntries(Object.entries(PUBLISHED_FILES).map(([key, name]) => [name, fileInfo(files[key as keyof SetFiles])])),
  });
}

/** The meta file's bytes: zod's parse keeps the schema's key order, so the same meta is the same bytes. */
export const metaJson = (meta: IndexMeta): string => `${JSON.stringify(meta, null, 1)}\n`;
