import { describe, expect, it } from "vitest";
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
});
