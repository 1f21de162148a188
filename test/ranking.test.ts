import { describe, expect, it } from "vitest";
import { rank, type RankCandidate } from "../core/ranking.ts";
import type { Asset } from "../core/schemas/index.ts";

/** Synthetic assets: only the fields the ranker reads. */
const asset = (provider: string, slug: string, extra: Partial<Asset> = {}): Asset => ({
  id: `${provider}:${slug}`,
  provider,
  nativeId: slug,
  title: slug,
  type: "model",
  tags: [],
  url: `https://${provider}.example/${slug}`,
  downloadable: false,
  ...extra,
});

const candidates = (assets: Asset[]): RankCandidate[] =>
  assets.map((a, i, all) => ({ asset: a, sourceRank: all.filter((b, j) => j < i && b.provider === a.provider).length, sourceCount: all.filter((b) => b.provider === a.provider).length }));

describe("rank", () => {
  it("puts the title match first and scores in 0..1, best first", () => {
    const out = rank(
      candidates([asset("a", "rock", { title: "Mossy Rock", description: "a tree nearby" }), asset("b", "tree", { title: "Oak Tree", tags: ["tree"] })]),
      { q: "tree", types: [] },
    );
    expect(out.map((a) => a.id)).toEqual(["b:tree", "a:rock"]);
    expect(out.every((a) => a.score! >= 0 && a.score! <= 1)).toBe(true);
    expect(out[0]!.score!).toBeGreaterThan(out[1]!.score!);
  });

  it("ranks the word itself above a longer word it prefixes, however rare that word is", () => {
    // Many titles hold "tree" (a common word among the candidates), one holds "trees": by IDF alone
    // the rare prefix match would win. Each asset is alone in its source, first in its list.
    const titles = ["Olive Trees", "Tree", "Oak Tree", "Pine Tree", "Palm Tree", "Tree Stump"];
    const out = rank(candidates(titles.map((title, i) => asset(`s${i}`, `t${i}`, { title }))), { q: "tree", types: [] });
    expect(out[0]!.title).toBe("Tree");
    expect(out.at(-1)!.title).toBe("Olive Trees");
  });

  it("prefers the exact type, then free and downloadable", () => {
    const out = rank(
      candidates([
        asset("a", "tree-sprite", { title: "Tree", type: "sprite" }),
        asset("b", "tree-model", { title: "Tree" }),
        asset("c", "tree-free", { title: "Tree", downloadable: true, price: { free: true } }),
      ]),
      { q: "tree", types: ["model"] },
    );
    expect(out.map((a) => a.id)).toEqual(["c:tree-free", "b:tree-model", "a:tree-sprite"]);
  });

  it("keeps one source from filling the page and breaks ties by id", () => {
    const many = ["t1", "t2", "t3", "t4"].map((s) => asset("big", s, { title: "Tree" }));
    const out = rank(candidates([...many, asset("small", "t9", { title: "Tree" })]), { q: "tree", types: [] });
    expect(out.findIndex((a) => a.provider === "small")).toBeLessThan(3);
    const tie = rank(candidates([asset("x", "b", { title: "Tree" }), asset("y", "a", { title: "Tree" })]), { q: "tree", types: [] });
    expect(tie[0]!.score).toBe(tie[1]!.score);
    expect(tie.map((a) => a.id)).toEqual(["x:b", "y:a"]);
  });
});
