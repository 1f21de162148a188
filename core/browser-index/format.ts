/**
 * The browser index's version and places, kept apart from its schema (core/schemas/browser-index.ts)
 * so the module a browser loads (search.ts, bundled as `search.js`) carries no schema library.
 */
export const BROWSER_INDEX_FORMAT = 1;

/** The folder of a publication (`<base>/v1/browser/`) the browser index is written to. */
export const BROWSER_DIR = "browser";

export const termShardFile = (shard: number) => `terms/${shard}.json`;
export const recordShardFile = (shard: number) => `records/${shard}.json`;

/** A term's entry in its shard: how many documents hold it, and its best documents with their saturations, best first. */
export type TermEntry = [documentFrequency: number, docs: number[], saturations: number[]];
