import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { AssetIndex } from "../core/index/search-index.ts";
import { planQuery } from "../core/relevance/query-plan.ts";
import { syntheticAsset } from "./helpers/synthetic-asset.ts";

const asset = syntheticAsset;

const titles = (index: AssetIndex, ...args: Parameters<AssetIndex["search"]>) => index.search(...args).map((h) => h.asset.title);

describe("AssetIndex statistics", () => {
  it("computes document frequencies and average field lengths once, from the records", () => {
    const index = AssetIndex.build([
      asset("a", "1", { title: "Oak Tree", tags: ["tree", "oak"] }),
      asset("a", "2", { title: "Pine Trees", description: "Three tall pines" }),
    ]);
    expect(index.documentCount).toBe(2);
    expect([index.documentFrequency("tree"), index.documentFrequency("oak"), index.documentFrequency("pine"), index.documentFrequency("elm")]).toEqual([
      2, 1, 1, 0,
    ]);
    expect(index.averageLengths).toEqual([2, 1, 0, 1.5, 0]);
  });
});

describe("AssetIndex.search", () => {
  const index = AssetIndex.build([
    asset("a", "oak-tree", { title: "Oak Tree" }),
    asset("a", "oak-table", { title: "Oak Table" }),
    asset("b", "pine", { title: "Pine", tags: ["tree"] }),
    asset("b", "treehouse", { title: "Treehouse" }),
    asset("b", "rock", { title: "Rock" }),
    asset("c", "sans", { title: "Pixel Sans", type: "font" }),
    asset("c", "grid", { title: "Grid", type: "font" }),
  ]);

  it("puts assets holding every word first, then those holding at least half of them, whole words before a prefix", () => {
    expect(titles(index, "oak tree")).toEqual(["Oak Tree", "Oak Table", "Pine", "Treehouse"]);
  });

  it("never ranks a prefix match above a whole-word one", () => {
    expect(titles(index, "tree")).toEqual(["Oak Tree", "Pine", "Treehouse"]);
  });

  it("finds typo matches only when the plan has typos on", () => {
    expect(titles(index, "pinne")).toEqual([]);
    expect(titles(index, { ...planQuery("pinne"), typos: true })).toEqual(["Pine"]);
  });

  it("does not require a type word, and with only type words finds the assets of its types", () => {
    expect(titles(index, "pixel font")).toEqual(["Pixel Sans"]);
    expect(titles(index, "fonts")).toEqual(["Grid", "Pixel Sans"]);
  });

  it("finds every asset that passes the filter for a query without words", () => {
    expect(titles(index, "", { providers: new Set(["b"]) })).toEqual(["Pine", "Rock", "Treehouse"]);
    expect(titles(index, "tree", { providers: new Set(["a"]) })).toEqual(["Oak Tree"]);
  });
});

describe("AssetIndex files", () => {
  const assets = [asset("a", "1", { title: "Oak Tree" }), asset("a", "2", { title: "Rock" })];

  it("writes the records only and rebuilds its terms when read", () => {
    const file = AssetIndex.build(assets, "2026-11-22T00:00:00.000Z").serialize();
    expect(JSON.parse(gunzipSync(file).toString("utf8"))).toEqual({ builtAt: "2026-11-22T00:00:00.000Z", assets });
    const read = AssetIndex.deserialize(file);
    expect(read.builtAt).toBe("2026-11-22T00:00:00.000Z");
    expect(titles(read, "trees")).toEqual(["Oak Tree"]);
  });

  it("reads a file written before, whose MiniSearch index it does not need", () => {
    const older = gzipSync(JSON.stringify({ builtAt: "2026-11-21T00:00:00.000Z", assets, index: { documentCount: 2, nextId: 2 } }));
    expect(titles(AssetIndex.deserialize(older), "rock")).toEqual(["Rock"]);
  });
});

describe("AssetIndex.serialize", () => {
  it("writes the same bytes as one JSON.stringify of the build time and the records, record by record", () => {
    const index = AssetIndex.build([asset("a", "2", { title: "Two" }), asset("a", "1", { title: "One", tags: ["x"] })], "2026-11-25T00:00:00.000Z");
    const json = gunzipSync(index.serialize()).toString("utf8");
    expect(json).toBe(JSON.stringify({ builtAt: "2026-11-25T00:00:00.000Z", assets: [...index.records()] }));
    expect(AssetIndex.build([]).serialize().length).toBeGreaterThan(0);
    expect(JSON.parse(gunzipSync(AssetIndex.build([], "2026-11-25T00:00:00.000Z").serialize()).toString("utf8"))).toEqual({
      builtAt: "2026-11-25T00:00:00.000Z",
      assets: [],
    });
  });
});
