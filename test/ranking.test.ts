import { describe, expect, it } from "vitest";
import { AssetIndex } from "../core/index/search-index.ts";
import { planQuery } from "../core/relevance/query-plan.ts";
import { type RankCandidate, type RankQuery, rank } from "../core/relevance/ranking.ts";
import { SCORING } from "../core/relevance/scoring.ts";
import type { Asset } from "../core/schemas/index.ts";
import { scored } from "../core/search/answer.ts";
import { syntheticAsset } from "./helpers/synthetic-asset.ts";

const asset = syntheticAsset;

const candidates = (assets: Asset[]): RankCandidate[] =>
  assets.map((a, i, all) => ({
    asset: a,
    sourceRank: all.filter((b, j) => j < i && b.provider === a.provider).length,
    sourceCount: all.filter((b) => b.provider === a.provider).length,
  }));

/** The ranking as results: each record with its score. */
const ranked = (list: RankCandidate[], query: RankQuery): Asset[] => rank(list, query).map(scored);

describe("rank", () => {
  it("returns each record untouched, paired with its score", () => {
    const records = [asset("a", "oak", { title: "Oak Tree" }), asset("b", "pine", { title: "Pine Tree" })];
    const out = rank(candidates(records), { q: "tree", types: [] });
    expect(out.map((r) => records.indexOf(r.asset)).sort()).toEqual([0, 1]);
    expect(records.every((r) => !("score" in r))).toBe(true);
  });

  it("puts the title match first and scores in 0..1, best first", () => {
    const out = ranked(
      candidates([asset("a", "rock", { title: "Mossy Rock", description: "a tree nearby" }), asset("b", "tree", { title: "Oak Tree", tags: ["tree"] })]),
      { q: "tree", types: [] },
    );
    expect(out.map((a) => a.id)).toEqual(["b:tree", "a:rock"]);
    expect(out.every((a) => a.score! >= 0 && a.score! <= 1)).toBe(true);
    expect(out[0]!.score!).toBeGreaterThan(out[1]!.score!);
  });

  it("ranks the word itself above a longer word it prefixes, however rare that word is", () => {
    // Many titles hold "tree", one holds "treehouse": by IDF alone the rare prefix match would win.
    // ("Trees" is no prefix match any more: it stems to tree.) Each asset is alone in its source.
    const titles = ["Treehouse", "Tree", "Oak Trees", "Pine Tree", "Palm Tree", "Tree Stump"];
    const out = ranked(candidates(titles.map((title, i) => asset(`s${i}`, `t${i}`, { title }))), { q: "tree", types: [] });
    expect(out[0]!.title).toBe("Tree");
    expect(out.at(-1)!.title).toBe("Treehouse");
  });

  it("prefers the exact type", () => {
    const out = ranked(candidates([asset("a", "tree-sprite", { title: "Tree", type: "sprite" }), asset("b", "tree-model", { title: "Tree" })]), {
      q: "tree",
      types: ["model"],
    });
    expect(out.map((a) => a.id)).toEqual(["b:tree-model", "a:tree-sprite"]);
  });

  it("boosts the types a type word names by the type weight, keeping the other types", () => {
    const out = ranked(candidates([asset("a", "sprite", { title: "Pixel Sans", type: "sprite" }), asset("b", "font", { title: "Pixel Sans", type: "font" })]), {
      q: "pixel font",
      types: [],
    });
    expect(out.map((a) => a.id)).toEqual(["b:font", "a:sprite"]);
    expect(out[0]!.score! - out[1]!.score!).toBeCloseTo(SCORING.weights.type, 4);
  });

  it("lets free and downloadable only break ties", () => {
    const out = ranked(
      candidates([
        asset("a", "free", { title: "Stump", description: "tree", downloadable: true, price: { free: true } }),
        asset("b", "paid", { title: "Tree", price: { free: false } }),
        asset("c", "free-too", { title: "Tree", price: { free: true } }),
        asset("d", "free-dl", { title: "Tree", downloadable: true, price: { free: true } }),
      ]),
      { q: "tree", types: [] },
    );
    expect(out.map((a) => a.id)).toEqual(["d:free-dl", "c:free-too", "b:paid", "a:free"]);
  });

  it("keeps one source from filling the page and breaks ties by id", () => {
    const many = ["t1", "t2", "t3", "t4"].map((s) => asset("big", s, { title: "Tree" }));
    const out = ranked(candidates([...many, asset("small", "t9", { title: "Tree" })]), { q: "tree", types: [] });
    expect(out.findIndex((a) => a.provider === "small")).toBeLessThan(3);
    const tie = ranked(candidates([asset("x", "b", { title: "Tree" }), asset("y", "a", { title: "Tree" })]), { q: "tree", types: [] });
    expect(tie[0]!.score).toBe(tie[1]!.score);
    expect(tie.map((a) => a.id)).toEqual(["x:b", "y:a"]);
  });

  it("applies the diversity rule only among results whose text relevance is close: a weak match never climbs over strong ones", () => {
    const many = ["t1", "t2", "t3", "t4"].map((s) => asset("big", s, { title: "Tree" }));
    const weak = asset("small", "t9", { title: "Stump", description: "near a tree in the old oak forest by the river" });
    const out = ranked(candidates([...many, weak]), { q: "tree", types: [] });
    expect(out.at(-1)!.id).toBe("small:t9");
  });

  it("shows no typo-only match beside exact or stemmed matches, whatever its source rank and text (the junk floor)", () => {
    const out = ranked(
      candidates([
        asset("a", "glass", { title: "Glass", downloadable: true, price: { free: true } }),
        ...["g1", "g2", "g3"].map((s) => asset("b", s, { title: "Field", description: "grass" })),
      ]),
      { q: "grass", types: [], plan: { ...planQuery("grass"), typos: true } },
    );
    expect(out.map((a) => a.id).sort()).toEqual(["b:g1", "b:g2", "b:g3"]);
  });

  it("gives scores that follow the order: each band of match quality its own range", () => {
    const out = ranked(candidates([asset("a", "full", { title: "Oak Tree" }), asset("b", "half", { title: "Oak" })]), { q: "oak tree", types: [] });
    expect(out.map((a) => a.id)).toEqual(["a:full", "b:half"]);
    expect(out[0]!.score).toBeGreaterThanOrEqual(0.5);
    expect(out[1]!.score).toBeLessThanOrEqual(0.5);
  });

  it("scores a live result exactly as the index scores the same record, with the index's statistics", () => {
    const records = [asset("p", "oak", { title: "Oak Tree", tags: ["oak"] }), asset("p", "pine", { title: "Pine Tree" }), asset("p", "elm", { title: "Elm" })];
    const index = AssetIndex.build(records);
    const [hit] = index.search("oak tree");
    const one = (c: Omit<RankCandidate, "sourceRank" | "sourceCount">) =>
      ranked([{ ...c, sourceRank: 0, sourceCount: 1 }], { q: "oak tree", types: [], stats: index })[0]!.score;
    expect(one({ asset: hit!.asset })).toBe(one({ asset: hit!.asset, match: hit!.match }));
  });
});
