import { describe, expect, it } from "vitest";
import { type CorpusStats, NO_INDEX } from "../core/relevance/bm25.ts";
import { matchAssets } from "../core/relevance/match.ts";
import { planQuery } from "../core/relevance/query-plan.ts";
import { querySharer, type RankCandidate, rank, wordSharer } from "../core/relevance/ranking.ts";
import { SCORING } from "../core/relevance/scoring.ts";
import type { Asset } from "../core/schemas/index.ts";
import { syntheticAsset as asset } from "./helpers/synthetic-asset.ts";

/** Each asset alone in its source: the source rank plays no part. */
const candidates = (assets: Asset[]): RankCandidate[] => assets.map((a) => ({ asset: a, sourceRank: 0, sourceCount: 1 }));
const ids = (assets: Asset[], q: string, stats?: CorpusStats) => rank(candidates(assets), { q, types: [], stats }).map((r) => r.asset.id);
/** An index of 1,000 assets where "night" and "sprite" are rare and "sky" and "game" common. */
const STATS: CorpusStats = {
  documentCount: 1000,
  averageLengths: [],
  documentFrequency: (term) => ({ night: 10, sky: 200, sprite: 10, game: 200 })[term] ?? 0,
};

describe("the junk floor (SCORING.floor)", () => {
  it("is half the best's text relevance and 45 % of the query by IDF, for results holding fewer of its words than the best", () => {
    expect(SCORING.floor).toEqual({ text: 0.5, share: 0.45 });
  });

  it("drops a result holding only the common word of two, and keeps one holding only the rare word", () => {
    const skies = [
      asset("a", "night-sky", { title: "Night Sky", type: "hdri" }),
      asset("b", "night-street", { title: "Night Street", type: "hdri" }),
      asset("c", "day-sky", { title: "Day Sky", type: "hdri" }),
    ];
    expect(ids(skies, "night sky", STATS)).toEqual(["a:night-sky", "b:night-street"]);
    // Every word alike (no index), each holds half of the query and its text is half the best's: all are shown.
    expect(ids(skies, "night sky").sort()).toEqual(["a:night-sky", "b:night-street", "c:day-sky"]);
  });

  it("weighs a type word like a required one: an asset of another type holding only the common word goes", () => {
    const out = ids(
      [asset("a", "tiles", { title: "Tiles", tags: ["game"], type: "sprite" }), asset("b", "kit", { title: "Kit", tags: ["game"], type: "model" })],
      "game sprites",
      STATS,
    );
    expect(out).toEqual(["a:tiles"]);
  });

  it("drops weak partial matches below a strong full match, and keeps the full matches however weak", () => {
    const out = ids(
      [
        asset("a", "brick-wall", { title: "Brick Wall", tags: ["brick", "wall"], type: "texture" }),
        asset("b", "lamp", { title: "Garden Lamp", description: "a lamp to hang on a wall, with a long cable and a warm glow", type: "model" }),
        asset("c", "oven", { title: "Pizza Oven", description: "an oven of clay and brick for a garden or a patio", type: "model" }),
        asset("d", "old", { title: "Old Stones", description: "stones of an old brick wall", type: "texture" }),
      ],
      "brick wall",
    );
    expect(out).toEqual(["a:brick-wall", "d:old"]);
  });

  it("counts a type word as held by an asset of its type or whose text holds it", () => {
    const out = ids(
      [
        asset("a", "boom", { title: "Explosion", type: "audio" }),
        asset("b", "crater", { title: "Crater", description: "the ground after an explosion, in the sand of a dry field", type: "texture" }),
        asset("c", "blast", { title: "Blast", description: "the sound of an explosion, far away, then silence", type: "texture" }),
      ],
      "explosion sound",
    );
    // b holds one word of two; c holds both, "sound" in its text, though it is no audio.
    expect(out).toEqual(["a:boom", "c:blast"]);
  });

  it("drops nothing when every result is as weak as the best: the best itself is the measure", () => {
    const weak = [
      asset("a", "lamp", { title: "Garden Lamp", description: "a lamp to hang on a wall" }),
      asset("b", "shelf", { title: "Shelf", description: "a shelf for a kitchen wall, of oak and steel, with two hooks under it" }),
      asset("c", "clock", { title: "Clock", description: "a round clock for a wall" }),
    ];
    expect(ids(weak, "brick wall").sort()).toEqual(["a:lamp", "b:shelf", "c:clock"]);
    // Live results that hold no query word at all (the site matched on fields we cannot see) are all kept too.
    expect(ids(weak, "chandelier").sort()).toEqual(["a:lamp", "b:shelf", "c:clock"]);
  });

  it("judges an index hit and a live result alike: the weak one goes whichever side it comes from", () => {
    const strong = asset("a", "brick-wall", { title: "Brick Wall", tags: ["brick", "wall"] });
    const weak = asset("b", "lamp", { title: "Lamp", description: "a lamp to hang on a wall, with a long cable and a warm glow" });
    const plan = planQuery("brick wall");
    const matches = matchAssets([strong, weak], plan, NO_INDEX);
    const fromIndex = (a: Asset): RankCandidate => ({ asset: a, sourceRank: 0, sourceCount: 1, match: matches.get(a.id)! });
    const live = (a: Asset): RankCandidate => ({ asset: a, sourceRank: 0, sourceCount: 1 });
    for (const list of [
      [fromIndex(strong), live(weak)],
      [live(strong), fromIndex(weak)],
      [live(strong), live(weak)],
    ]) {
      expect(rank(list, { q: "brick wall", types: [], plan }).map((r) => r.asset.id)).toEqual(["a:brick-wall"]);
    }
  });
});

describe("wordSharer", () => {
  const share = (q: string, a: Asset, match: Parameters<ReturnType<typeof wordSharer>>[1]) => wordSharer(planQuery(q), new Set(["kenney"]))(a, match);
  const full = { coverage: 1, exactCoverage: 1, quality: 0 as const, text: 0.5, words: 0, held: 1 };

  it("counts required words by how they matched: whole 1, the prefix 0.5, a typo 0.4", () => {
    expect(share("brick wall", asset("a", "x"), full)).toBe(1);
    expect(share("brick wall", asset("a", "x"), { ...full, coverage: 0.5, exactCoverage: 0.5 })).toBe(0.5);
    expect(share("brick wal", asset("a", "x"), { ...full, quality: 1 })).toBe(0.75);
    expect(share("brick wall", asset("a", "x"), { ...full, exactCoverage: 0.5, quality: 2 })).toBeCloseTo(0.7, 12);
  });

  it("counts a type word by the asset's type (texture and material alike, a pack source's listing as a pack) or by its text", () => {
    const m = { ...full, coverage: 1, exactCoverage: 1 };
    expect(share("rock texture", asset("a", "x", { type: "material" }), m)).toBe(1);
    expect(share("rock texture", asset("a", "x", { type: "model" }), m)).toBe(0.5);
    expect(share("rock texture", asset("a", "x", { type: "model" }), { ...m, words: 0b10 })).toBe(1);
    expect(share("rock pack", asset("kenney", "x", { type: "model" }), m)).toBe(1);
    expect(share("", asset("a", "x"), m)).toBe(1);
  });
});

describe("querySharer", () => {
  const share = (q: string, a: Asset, stats: CorpusStats) => {
    const plan = planQuery(q);
    return querySharer(plan, new Set(), stats)(a, matchAssets([a], plan, stats).get(a.id)!);
  };
  const idf = (df: number) => Math.log(1 + (1000 - df + 0.5) / (df + 0.5));

  it("weighs each word by its IDF: the rare word holds more of the query than the common one", () => {
    const night = idf(10) / (idf(10) + idf(200));
    expect(share("night sky", asset("a", "x", { title: "Night Street" }), STATS)).toBeCloseTo(night, 12);
    expect(share("night sky", asset("a", "x", { title: "Day Sky" }), STATS)).toBeCloseTo(1 - night, 12);
    expect(share("night sky", asset("a", "x", { title: "Night Sky" }), STATS)).toBeCloseTo(1, 12);
    expect(share("night sky", asset("a", "x", { title: "Day Sky" }), NO_INDEX)).toBeCloseTo(0.5, 12);
  });

  it("counts a type word by the asset's type when its text does not hold it", () => {
    expect(share("game sprites", asset("a", "x", { title: "Tiles", tags: ["game"], type: "sprite" }), STATS)).toBeCloseTo(1, 12);
    expect(share("game sprites", asset("a", "x", { title: "Tiles", tags: ["game"], type: "model" }), STATS)).toBeCloseTo(idf(200) / (idf(200) + idf(10)), 12);
    expect(share("", asset("a", "x"), STATS)).toBe(1);
  });
});
