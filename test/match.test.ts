import { describe, expect, it } from "vitest";
import { type CorpusStats, NO_INDEX } from "../core/relevance/bm25.ts";
import { band, type DocMatch, keeps, matchAssets } from "../core/relevance/match.ts";
import { planQuery, type QueryPlan } from "../core/relevance/query-plan.ts";
import { SCORING } from "../core/relevance/scoring.ts";
import { termTable, type Vocabulary } from "../core/relevance/term-table.ts";
import type { Asset } from "../core/schemas/index.ts";

const asset = (slug: string, extra: Partial<Asset> = {}): Asset => ({
  id: `s:${slug}`,
  provider: "s",
  nativeId: slug,
  title: slug,
  type: "model",
  tags: [],
  url: `https://s.example/${slug}`,
  downloadable: false,
  ...extra,
});

/** The match of each asset, by title. */
function matches(assets: Asset[], plan: QueryPlan, stats: CorpusStats = NO_INDEX): Record<string, DocMatch> {
  const byId = matchAssets(assets, plan, stats);
  return Object.fromEntries(assets.map((a) => [a.title, byId.get(a.id)!]));
}

const typos = (q: string) => ({ ...planQuery(q), typos: true });

describe("text relevance", () => {
  it("weighs a synonym at SCORING.kinds.synonym of the word itself, all else equal", () => {
    const m = matches([asset("sofa", { title: "Sofa" }), asset("couch", { title: "Couch" })], planQuery("sofa"));
    expect(m.Couch!.text / m.Sofa!.text).toBeCloseTo(SCORING.kinds.synonym, 12);
    expect(band(m.Couch!)).toBe(band(m.Sofa!));
  });

  it("reads document frequencies from the index's statistics: the rarer word weighs more", () => {
    const stats: CorpusStats = { documentCount: 1000, averageLengths: [2, 2, 2, 2, 2], documentFrequency: (t) => (t === "oak" ? 3 : t === "tree" ? 400 : 0) };
    const m = matches([asset("a", { title: "Oak Table" }), asset("b", { title: "Tree Stump" })], planQuery("oak tree"), stats);
    expect(m["Oak Table"]!.text).toBeGreaterThan(m["Tree Stump"]!.text);
  });

  it("scores the words of a pair written together as matched whole", () => {
    const m = matches([asset("a", { title: "Lowpoly Tree" }), asset("b", { title: "Low Poly Tree" })], planQuery("low-poly tree"));
    expect(m["Lowpoly Tree"]).toMatchObject({ coverage: 1, quality: 0 });
    expect(m["Low Poly Tree"]).toMatchObject({ coverage: 1, quality: 0 });
  });

  it("counts a type word when a record holds it but never requires it", () => {
    const m = matches([asset("a", { title: "Pixel Sans", type: "font" }), asset("b", { title: "Pixel Font", type: "font" })], planQuery("pixel font"));
    expect(m["Pixel Sans"]).toMatchObject({ coverage: 1, exactCoverage: 1 });
    expect(m["Pixel Font"]!.text).toBeGreaterThan(m["Pixel Sans"]!.text);
  });
});

describe("bands", () => {
  it("put a prefix match below a whole-word match, however rare the longer word", () => {
    const stats: CorpusStats = { documentCount: 1000, averageLengths: [2, 2, 2, 2, 2], documentFrequency: (t) => (t === "tree" ? 500 : 1) };
    const m = matches([asset("a", { title: "Treehouse" }), asset("b", { tags: ["tree"], title: "Oak" })], planQuery("tree"), stats);
    expect(m.Treehouse).toMatchObject({ coverage: 1, quality: 1 });
    expect(band(m.Oak!)).toBeLessThan(band(m.Treehouse!));
  });

  it("order by the share of words matched: every word first", () => {
    const plan = planQuery("red oak tree");
    const m = matches([asset("a", { title: "Oak" }), asset("b", { title: "Red Oak" }), asset("c", { title: "Red Oak Tree" })], plan);
    expect([m["Red Oak Tree"]!.coverage, m["Red Oak"]!.coverage, m.Oak!.coverage]).toEqual([1, 2 / 3, 1 / 3]);
    expect(band(m["Red Oak Tree"]!)).toBeLessThan(band(m["Red Oak"]!));
    expect(band(m["Red Oak"]!)).toBeLessThan(band(m.Oak!));
  });

  it("put a typo-only match below every exact or stemmed one, even one matching fewer words", () => {
    const m = matches([asset("a", { title: "Glass Shards" }), asset("b", { title: "Green Field" })], typos("grass field"));
    expect(m["Glass Shards"]).toMatchObject({ coverage: 0.5, exactCoverage: 0 });
    expect(m["Green Field"]).toMatchObject({ coverage: 0.5, exactCoverage: 0.5 });
    expect(band(m["Green Field"]!)).toBeLessThan(band(m["Glass Shards"]!));
    const both = matches([asset("c", { title: "Glass Field" })], typos("grass field"))["Glass Field"]!;
    expect(both).toMatchObject({ coverage: 1, exactCoverage: 0.5, quality: 2 });
    expect(band(m["Green Field"]!)).toBeGreaterThan(band(both));
  });
});

describe("minimum should match", () => {
  it("keeps half the required words, rounded down, at least one", () => {
    const share = (q: string, coverage: number) => keeps(planQuery(q))({ coverage, exactCoverage: coverage, quality: 0, text: 0, words: 0, held: coverage });
    expect([share("oak", 1), share("oak", 0)]).toEqual([true, false]);
    expect([share("oak tree", 0.5), share("red oak tree", 1 / 3), share("big red oak tree", 0.25), share("big red oak tree", 0.5)]).toEqual([
      true,
      true,
      false,
      true,
    ]);
    expect(share("icons", 1)).toBe(true);
  });
});

describe("termTable", () => {
  const vocabulary = (terms: string[]): Vocabulary => ({
    prefixed: (p) => terms.filter((t) => t.startsWith(p) && t !== p),
    near: (t, d) => terms.filter((x) => x !== t && d >= 1 && x.length === t.length && [...x].filter((c, i) => c !== t[i]).length <= d),
  });

  it("adds the last word's longer terms as prefix matches", () => {
    const table = termTable(planQuery("sofa"), vocabulary(["sofa", "sofadi", "sofas"]));
    expect(table.get("sofadi")).toEqual([{ words: [0], kind: "prefix" }]);
    expect(table.get("sofa")).toEqual([{ words: [0], kind: "exact" }]);
  });

  it("adds typo matches only when typos are on, only for words of five letters or more", () => {
    const words = ["glass", "sofa", "sola"];
    expect(termTable(planQuery("grass"), vocabulary(words)).has("glass")).toBe(false);
    expect(termTable(typos("grass"), vocabulary(words)).get("glass")).toEqual([{ words: [0], kind: "typo" }]);
    expect(termTable(typos("sofa grass"), vocabulary(words)).has("sola")).toBe(false);
  });

  it("allows a fifth of a word's letters in edits, rounded, and never more than SCORING.typo.maxEdits", () => {
    const asked: number[] = [];
    const spy: Vocabulary = {
      prefixed: () => [],
      near: (_t, d) => {
        asked.push(d);
        return [];
      },
    };
    for (const q of ["grass", "victorain", "x".repeat(40)]) termTable(typos(q), spy);
    expect(asked).toEqual([1, 2, SCORING.typo.maxEdits]);
  });
});
