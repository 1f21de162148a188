import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openBrowserIndex } from "../core/index/browser/search.ts";
import { BROWSER_INDEX_DEFAULTS } from "../core/index/browser/write.ts";
import { AssetIndex } from "../core/index/search-index.ts";
import { BrowserIndexMeta } from "../core/schemas/browser-index.ts";
import type { Asset } from "../core/schemas/index.ts";
import { scratchDirs } from "./helpers/scratch.ts";
import { syntheticAsset } from "./helpers/synthetic-asset.ts";

const scratch = scratchDirs("asset-search-browser-index-");

const ASSETS: Asset[] = [
  syntheticAsset("quaternius", "trees", { title: "Stylized Tree Pack", tags: ["lowpoly", "nature"], type: "pack" }),
  syntheticAsset("kenney", "forest", { title: "Low Poly Forest", tags: ["tree", "pine"], license: { name: "CC0 1.0", spdx: "CC0-1.0" } }),
  syntheticAsset("polyhaven", "bark", { title: "Pine Bark", tags: ["tree", "wood"], type: "texture", author: "Rob Tuytel" }),
  syntheticAsset("polyhaven", "armchair", { title: "Arm Chair", tags: ["couch", "furniture"] }),
  syntheticAsset("polyhaven", "rock", { title: "Mossy Rock", tags: ["stone"], description: "A rock with moss, for a forest floor" }),
];
const BUILT_AT = "2026-11-20T04:00:00.000Z";

/** Writes the browser index of ASSETS and opens it through a `fetch` that reads the folder and logs what it was asked. */
async function published(options = BROWSER_INDEX_DEFAULTS) {
  const dir = scratch();
  const index = AssetIndex.build(ASSETS, BUILT_AT);
  const meta = index.writeBrowserIndex(dir, options);
  const asked: string[] = [];
  const get = async (url: string) => {
    const file = url.replace("https://pages.example/v1/browser/", "");
    asked.push(file);
    try {
      return new Response(readFileSync(join(dir, file)));
    } catch {
      return new Response("not found", { status: 404 });
    }
  };
  return { dir, index, meta, asked, browser: await openBrowserIndex("https://pages.example/", get) };
}

const ids = (results: { hits: { record: { id: string } }[] }) => results.hits.map((h) => h.record.id);

describe("the browser index (v1/browser/)", () => {
  it("writes a meta that its schema reads, with the counts of what it wrote", async () => {
    const { dir, meta } = await published();
    expect(BrowserIndexMeta.parse(JSON.parse(readFileSync(join(dir, "meta.json"), "utf8")))).toEqual(meta);
    expect(meta).toMatchObject({
      format: 1,
      builtAt: BUILT_AT,
      documentCount: 5,
      records: { shards: 1, perShard: 64 },
      terms: { shards: 1, postingsPerTerm: 500 },
    });
    expect(readdirSync(join(dir, "terms")).sort()).toEqual(["0.json", "index.json"]);
    expect(readdirSync(join(dir, "records"))).toEqual(["0.json"]);
  });

  it("keeps only what a result shows of a record", async () => {
    const { dir, index } = await published();
    const records = JSON.parse(readFileSync(join(dir, "records/0.json"), "utf8")) as Record<string, unknown>[];
    expect(records.map((r) => r.id)).toEqual([...index.records()].map((a) => a.id));
    const forest = records.find((r) => r.id === "kenney:forest");
    expect(forest).toEqual({
      id: "kenney:forest",
      provider: "kenney",
      title: "Low Poly Forest",
      type: "model",
      url: "https://kenney.example/forest",
      license: { name: "CC0 1.0", spdx: "CC0-1.0" },
    });
  });

  it("ranks the documents holding every word first, a pair written together holding both", async () => {
    const { browser } = await published();
    // "lowpoly" in a tag holds the pair of "low poly"; "tree" is in both and in the bark's tags.
    expect(ids(await browser.search("low poly tree"))).toEqual(["kenney:forest", "quaternius:trees", "polyhaven:bark"]);
    const [first] = (await browser.search("low poly tree")).hits;
    expect(first?.words).toBe(3);
  });

  it("reads a query as the server does: stems and synonyms", async () => {
    const { browser } = await published();
    expect(ids(await browser.search("chairs"))).toEqual(["polyhaven:armchair"]);
    // sofa ↔ couch (core/text/synonyms.ts): the armchair is tagged couch.
    expect(ids(await browser.search("sofa"))).toEqual(["polyhaven:armchair"]);
    expect(ids(await browser.search("stones"))).toEqual(["polyhaven:rock"]);
    expect(await browser.search("zeppelin")).toEqual({ total: 0, hits: [] });
  });

  it("fetches the one shard of each term and only the records of the page", async () => {
    const { browser, asked } = await published({ ...BROWSER_INDEX_DEFAULTS, shardChars: 1, recordsPerShard: 1 });
    expect(browser.meta.terms.shards).toBeGreaterThan(20);
    expect(asked).toEqual(["meta.json", "terms/index.json"]);
    asked.length = 0;
    expect(ids(await browser.search("bark"))).toEqual(["polyhaven:bark"]);
    // Documents are numbered in the index's order: the bark is the first polyhaven record.
    const doc = ASSETS.map((a) => a.id)
      .sort()
      .indexOf("polyhaven:bark");
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatch(/^terms\/\d+\.json$/);
    expect(asked[1]).toBe(`records/${doc}.json`);
    asked.length = 0;
    await browser.search("bark");
    expect(asked).toEqual([]);
  });

  it("keeps a term's best postings only, with its document frequency counting them all", async () => {
    const tree = async (postingsPerTerm: number) => {
      const { dir } = await published({ ...BROWSER_INDEX_DEFAULTS, postingsPerTerm });
      return (JSON.parse(readFileSync(join(dir, "terms/0.json"), "utf8")) as Record<string, [number, number[], number[]]>).tree!;
    };
    const [df, docs, saturations] = await tree(500);
    expect(df).toBe(3);
    expect(docs).toHaveLength(3);
    // Best first: the saturations never rise.
    expect([...saturations].sort((a, b) => b - a)).toEqual(saturations);
    expect(await tree(1)).toEqual([3, docs.slice(0, 1), saturations.slice(0, 1)]);
  });

  it("fails a search whose shard cannot be fetched, naming it, and asks for it again next time", async () => {
    const dir = scratch();
    AssetIndex.build(ASSETS, BUILT_AT).writeBrowserIndex(dir);
    let failing = true;
    const get = async (url: string) => {
      const file = url.replace("https://pages.example/v1/browser/", "");
      if (failing && file === "terms/0.json") return new Response("unavailable", { status: 503 });
      return new Response(readFileSync(join(dir, file)));
    };
    const browser = await openBrowserIndex("https://pages.example", get);
    await expect(browser.search("bark")).rejects.toThrow("https://pages.example/v1/browser/terms/0.json: HTTP 503");
    failing = false;
    expect(ids(await browser.search("bark"))).toEqual(["polyhaven:bark"]);
  });

  it("refuses a folder of another format, naming it", async () => {
    const get = async () => new Response(JSON.stringify({ format: 2 }));
    await expect(openBrowserIndex("https://pages.example", get)).rejects.toThrow(
      "https://pages.example/v1/browser/meta.json is of format 2; this module reads format 1",
    );
  });
});
