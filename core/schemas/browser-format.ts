/**
 * The browser index's version and places, kept apart from its schema (core/schemas/browser-index.ts)
 * so the module a browser loads (search.ts, bundled as `search.js`) carries no schema library.
 */
export const BROWSER_INDEX_FORMAT = 1;

/** The folder of a publication (`<base>/v1/browser/`) the browser index is written to. */
export const BROWSER_DIR = "browser";

/** The folder's files, as its meta names them; `{shard}` stands for a shard's number. */
export const BROWSER_FILES = {
  firstTerms: "terms/index.json",
  termShards: "terms/{shard}.json",
  recordShards: "records/{shard}.json",
  module: "search.js",
} as const;

const shardFile = (template: string) => (shard: number) => template.replace("{shard}", String(shard));
export const termShardFile = shardFile(BROWSER_FILES.termShards);
export const recordShardFile = shardFile(BROWSER_FILES.recordShards);

/** A term's entry in its shard: how many documents hold it, and its best documents with their saturations, best first. */
export type TermEntry = [documentFrequency: number, docs: number[], saturations: number[]];
