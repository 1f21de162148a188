import { z } from "zod";
import { Asset } from "./asset.ts";
import { BROWSER_FILES, BROWSER_INDEX_FORMAT } from "./browser-format.ts";

/** What a browser shows of a result: the record's identity, where it lives and its licence. */
export const BrowserRecord = Asset.pick({ id: true, provider: true, title: true, type: true, url: true, thumbnailUrl: true, author: true, license: true }).meta(
  {
    id: "BrowserRecord",
  },
);
export type BrowserRecord = z.infer<typeof BrowserRecord>;

/** `v1/browser/meta.json`: the layout of the browser index, read first by `search.js`. */
export const BrowserIndexMeta = z
  .object({
    format: z.literal(BROWSER_INDEX_FORMAT).describe("the version of this folder's layout; a change a reader of this one would misread takes a new one"),
    builtAt: z.iso.datetime().describe("the build time of the set it was made from (index.meta.json's builtAt)"),
    documentCount: z.int().min(0),
    terms: z
      .object({
        shards: z.int().min(0),
        firstTerms: z.literal(BROWSER_FILES.firstTerms).describe("a JSON array: the first term of each shard, in JavaScript string order"),
        file: z.literal(BROWSER_FILES.termShards).describe('one shard: { "<term>": [documentFrequency, docs[], saturations[]] }, best first'),
        postingsPerTerm: z.int().min(1).describe("a term's best postings kept, over all sources; its document frequency counts them all"),
      })
      .describe("the terms, cut in shards of contiguous terms"),
    records: z
      .object({
        shards: z.int().min(0),
        perShard: z.int().min(1),
        file: z.literal(BROWSER_FILES.recordShards).describe("a JSON array of BrowserRecord: documents shard × perShard onwards"),
      })
      .describe("what a result shows, by document number"),
    analysis: z.string().describe("how the terms were made; search.js applies the same to a query"),
    module: z.literal(BROWSER_FILES.module).describe("an ES module: openBrowserIndex(base) → { meta, search(query, limit) }"),
  })
  .meta({ id: "BrowserIndexMeta" });
export type BrowserIndexMeta = z.infer<typeof BrowserIndexMeta>;
