import { describe, expect, it } from "vitest";
import { ASSET_TYPES } from "../core/schemas/index.ts";
import { loadJudgedSet } from "./relevance/judged-set.ts";
import { candidates, loadCatalogue } from "./relevance/pool.ts";

const set = loadJudgedSet();

describe("the judged relevance set (test/relevance/judged-set.json)", () => {
  it("has 60 queries or more, each with its own id", () => {
    expect(set.queries.length).toBeGreaterThanOrEqual(60);
    expect(new Set(set.queries.map((q) => q.id)).size).toBe(set.queries.length);
  });

  it("covers every asset type but 'other'", () => {
    const wanted = new Set(set.queries.map((q) => q.wants));
    expect([...wanted].sort()).toEqual(ASSET_TYPES.filter((t) => t !== "other").sort());
  });

  it("gives every query at least one relevant candidate (grade 2 or 3)", () => {
    const without = set.queries.filter((q) => !Object.values(q.judgments).some((g) => g >= 2)).map((q) => q.id);
    expect(without).toEqual([]);
  });

  it("judges only candidates of each query's pool: catalogue records that pass its filters, or recorded live answers", async () => {
    const catalogue = loadCatalogue();
    const outside: string[] = [];
    let fromLive = 0;
    for (const query of set.queries) {
      const pool = await candidates(query, catalogue);
      const from = new Map(pool.map((c) => [c.asset.id, c.from]));
      for (const id of Object.keys(query.judgments)) {
        if (!from.has(id)) outside.push(`${query.id}: ${id}`);
        else if (from.get(id) !== "catalogue") fromLive++;
      }
    }
    expect(outside).toEqual([]);
    expect(fromLive).toBeGreaterThan(0);
  });
});
