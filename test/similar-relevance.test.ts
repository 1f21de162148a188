// Similar assets judged like the search (test/relevance.test.ts): test/relevance/similar-set.json
// grades each seed's candidates from their fields, and the first ten similar assets of every seed,
// through the whole service over the committed data/ index, must keep the mean NDCG@10 committed
// with the set.
import { describe, expect, it } from "vitest";
import { loadSimilarSet, measureSimilarity } from "../bench/similar.ts";
import { loadPublished } from "../core/publication/published.ts";

describe("similar assets on the judged set", () => {
  const set = loadSimilarSet();

  it("judges at least ten seeds of at least five indexed sources, each present in data/ with judged candidates that are", () => {
    const index = loadPublished("data").index;
    expect(set.seeds.length).toBeGreaterThanOrEqual(10);
    expect(new Set(set.seeds.map((s) => s.id.split(":")[0])).size).toBeGreaterThanOrEqual(5);
    for (const seed of set.seeds) {
      expect(index.get(seed.id), seed.id).toBeDefined();
      expect(
        Object.keys(seed.judgments).filter((id) => !index.get(id)),
        seed.id,
      ).toEqual([]);
      expect(
        Object.values(seed.judgments).some((g) => g >= 2),
        seed.id,
      ).toBe(true);
    }
  });

  it("keeps the mean NDCG@10 at or above the minimum committed with the set", async () => {
    const figures = await measureSimilarity(set);
    console.log(
      `similar: mean NDCG@10 ${figures.meanNdcg10.toFixed(3)} (minimum ${set.minimumMeanNdcg}), mean P@5 ${figures.meanP5.toFixed(3)}, ${figures.seeds} seeds\n` +
        figures.perSeed.map((s) => `  ${s.id.padEnd(30)} NDCG@10 ${s.ndcg10.toFixed(3)}  P@5 ${s.p5.toFixed(2)}`).join("\n"),
    );
    expect(figures.meanNdcg10).toBeGreaterThanOrEqual(set.minimumMeanNdcg);
  });
});
