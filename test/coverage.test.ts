import { describe, expect, it } from "vitest";
import { loadPublished } from "../core/publication/published.ts";
import { ASSET_TYPES } from "../core/schemas/index.ts";
import { SOURCES } from "../sources/index.ts";

describe("source coverage", () => {
  it.each(ASSET_TYPES.filter((t) => t !== "other"))("%s is served by at least two sources that are searched", (type) => {
    const serving = SOURCES.filter((s) => s.mode !== "link" && s.assetTypes.includes(type)).map((s) => s.id);
    expect(serving.length, serving.join(", ")).toBeGreaterThanOrEqual(2);
  });

  it("has unique source ids, and every searched source can be searched or crawled and counted", () => {
    expect(new Set(SOURCES.map((s) => s.id)).size).toBe(SOURCES.length);
    for (const s of SOURCES) {
      if (s.mode === "indexed") expect(typeof s.crawl, s.id).toBe("function");
      if (s.mode === "live") expect(typeof s.search, s.id).toBe("function");
      if (s.mode === "link") for (const method of ["search", "crawl", "getAsset", "census"]) expect(s, s.id).not.toHaveProperty(method);
    }
  });

  it("searches at least 28 sources, and the embedded index holds at least 6,000 assets from at least 9 of them, as its meta and census say", () => {
    expect(SOURCES.filter((s) => s.mode !== "link").length).toBeGreaterThanOrEqual(28);
    const { index, meta, catalog } = loadPublished("data");
    const perSource = Object.entries(meta?.counts.sources ?? {}).filter(([, n]) => n > 0);
    expect(index.documentCount).toBeGreaterThanOrEqual(6000);
    expect(meta?.counts.assets).toBe(index.documentCount);
    expect(perSource.length).toBeGreaterThanOrEqual(9);
    // Every indexed source is in the index, counted as its census counts it.
    const indexed = SOURCES.filter((s) => s.mode === "indexed").map((s) => s.id);
    expect(perSource.map(([id]) => id).sort()).toEqual([...indexed].sort());
    for (const [id, n] of perSource) expect(catalog?.sources.find((s) => s.id === id)?.total, id).toBe(n);
  });
});
