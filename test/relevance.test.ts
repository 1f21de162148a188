import { describe, expect, it } from "vitest";
import { gradeOf, judgedAssets, junkShare, measureRelevance, ndcgAt10, precisionAt5 } from "../bench/relevance.ts";
import { ASSET_TYPES, type Asset } from "../core/schemas/index.ts";
import { syntheticAsset } from "./helpers/synthetic-asset.ts";
import { loadJudgedSet } from "./relevance/judged-set.ts";
import { candidates, loadCatalogue } from "./relevance/pool.ts";

const set = loadJudgedSet();

describe("the judged relevance set (test/relevance/judged-set.json)", () => {
  it("has 60 queries or more, each with its own id", () => {
    expect(set.queries.length).toBeGreaterThanOrEqual(60);
    expect(new Set(set.queries.map((q) => q.id)).size).toBe(set.queries.length);
  });

  it("covers every asset type", () => {
    const wanted = new Set(set.queries.map((q) => q.wants));
    expect([...wanted].sort()).toEqual([...ASSET_TYPES].sort());
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

describe("relevance figures", () => {
  it("NDCG@10: gain 2^grade - 1 discounted by log2(rank + 1), over the ideal order of all the query's judgments", () => {
    expect(ndcgAt10([3, 0, 2], [1, 3, 2])).toBeCloseTo((7 + 3 / 2) / (7 + 3 / Math.log2(3) + 1 / 2), 12);
    expect(ndcgAt10([3, 2, 1], [1, 2, 3])).toBe(1);
    // Only the first ten places count; a query without judgments scores 0.
    expect(ndcgAt10([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3], [3])).toBe(0);
    expect(ndcgAt10([], [])).toBe(0);
  });

  it("P@5 counts grades 2 and 3 among the first five places, an empty place as not relevant", () => {
    expect(precisionAt5([3, 2, 1, 0])).toBe(0.4);
    expect(precisionAt5([2, 2, 2, 2, 2, 3])).toBe(1);
  });

  it("junk share: grade-0 results among those shown in the top 10 of queries with fewer than ten judgments of grade ≥ 1, pooled", () => {
    const many = Array.from({ length: 10 }, () => 1);
    expect(
      junkShare([
        { grades: [3, 0, 0, 1], judged: [3, 1] },
        { grades: [2, 0], judged: [2, 2, 1] },
        // Ten relevant assets or more: a full page is no padding, whatever it holds.
        { grades: [0, 0, 0], judged: many },
        // Only the first ten places count.
        { grades: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], judged: [3] },
      ]),
    ).toEqual({ share: 13 / 16, queries: 3, shown: 16, junk: 13 });
    expect(junkShare([{ grades: [], judged: [3] }])).toEqual({ share: 0, queries: 1, shown: 0, junk: 0 });
  });

  it("counts judged listings a search shows as one result once in the ideal order, with the best of their grades", () => {
    const original = syntheticAsset("polyhaven", "rock", { title: "Rock", url: "https://polyhaven.com/a/rock" });
    const copy = syntheticAsset("gpuopen", "th-rock", { title: "TH: Rock", originalUrl: "https://polyhaven.com/a/rock" });
    const other = syntheticAsset("polyhaven", "sand", { title: "Sand" });
    const catalogue = new Map([original, copy, other].map((a) => [a.id, a]));
    const judgments = { "polyhaven:rock": 2, "gpuopen:th-rock": 3, "polyhaven:sand": 1, "live:x": 2 } as const;
    expect(judgedAssets(judgments, catalogue).sort()).toEqual([1, 2, 3]);
    // Showing the merged result and the rest is the ideal answer.
    expect(ndcgAt10([3, 2, 1], judgedAssets(judgments, catalogue))).toBe(1);
  });

  it("grades a merged listing by the best of the listings it stands for", () => {
    const asset = { id: "a:1", alsoOn: [{ id: "b:1", provider: "b", url: "https://b.example/1" }] } as Asset;
    expect(gradeOf(asset, { "b:1": 3, "a:1": 1 })).toBe(3);
    expect(gradeOf(asset, {})).toBe(0);
  });
});

describe("relevance of the whole service over the judged set", () => {
  it("keeps the mean NDCG@10 at or above the minimum committed with the set, the junk share at or below its maximum, and a relevant result in every top 10", async () => {
    const figures = await measureRelevance(set);
    const worst = [...figures.perQuery].sort((a, b) => a.ndcg10 - b.ndcg10).slice(0, 10);
    console.log(
      `mean NDCG@10 ${figures.meanNdcg10.toFixed(3)} (minimum ${set.minimumMeanNdcg}), mean P@5 ${figures.meanP5.toFixed(3)}, ` +
        `junk share ${(figures.junk.share * 100).toFixed(1)} % (maximum ${set.maximumJunkShare * 100} %; ${figures.junk.junk} of ${figures.junk.shown} results shown for ${figures.junk.queries} queries), ` +
        `${figures.withoutRelevant.length} of ${figures.queries} queries without a relevant result in the top 10\n` +
        worst
          .map((q) => `  ${q.id.padEnd(20)} NDCG@10 ${q.ndcg10.toFixed(3)}  P@5 ${q.p5.toFixed(2)}  top: ${q.top10.slice(0, 3).join(", ") || "(none)"}`)
          .join("\n"),
    );
    expect(figures.queries).toBe(set.queries.length);
    expect(figures.meanNdcg10).toBeGreaterThanOrEqual(set.minimumMeanNdcg);
    expect(figures.junk.share).toBeLessThanOrEqual(set.maximumJunkShare);
    expect(figures.withoutRelevant).toEqual([]);
  });
});
