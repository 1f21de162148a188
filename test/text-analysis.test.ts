import { describe, expect, it } from "vitest";
import type { Asset } from "../core/schemas/index.ts";
import { analyze, runTerms } from "../core/text/analyze.ts";
import { stem } from "../core/text/stem.ts";
import { words } from "../core/text/words.ts";

describe("words", () => {
  it("splits slugs, camelCase, punctuation and symbols", () => {
    expect(words("ArmChair_01")).toEqual(["arm", "chair", "01"]);
    expect(words("rock-face/cliff+moss (2k)")).toEqual(["rock", "face", "cliff", "moss", "2k"]);
    expect(words("  ")).toEqual([]);
  });

  it("folds case and accents", () => {
    expect(words("Café Crème-Brûlée")).toEqual(["cafe", "creme", "brulee"]);
    expect(words("ÉLAN naïve Röntgen")).toEqual(["elan", "naive", "rontgen"]);
  });
});

describe("stem", () => {
  it("takes plurals and -ing/-ed endings off with Porter2, so index and query meet", () => {
    const pairs = ["trees", "planks", "skies", "sky", "sounds", "buildings", "building", "rocks", "icons", "tiled", "tiling"].map((w) => [w, stem(w)]);
    expect(Object.fromEntries(pairs)).toEqual({
      trees: "tree",
      planks: "plank",
      skies: "sky",
      sky: "sky",
      sounds: "sound",
      buildings: "build",
      building: "build",
      rocks: "rock",
      icons: "icon",
      tiled: "tile",
      tiling: "tile",
    });
  });

  it("keeps apart words that only look alike, and words holding digits", () => {
    expect([stem("grass"), stem("glass")]).toEqual(["grass", "glass"]);
    // -en is not a Porter2 ending: handwritten meets handwriting through the synonym table.
    expect([stem("handwriting"), stem("handwritten")]).toEqual(["handwrit", "handwritten"]);
    expect([stem("01"), stem("4k"), stem("b2s")]).toEqual(["01", "4k", "b2s"]);
  });
});

describe("runTerms", () => {
  it("holds each word's stem and each adjacent pair written together", () => {
    expect(runTerms("Low Poly Trees")).toEqual({ words: ["low", "poli", "tree"], pairs: ["lowpoli", "polytre"] });
  });

  it("makes every spelling of a compound meet", () => {
    for (const spelling of ["low poly", "low-poly", "LowPoly", "lowpoly", "Low_Poly"]) {
      const { words, pairs } = runTerms(spelling);
      expect([...words, ...pairs], spelling).toContain("lowpoli");
    }
  });
});

describe("analyze", () => {
  it("counts each term per field (title, tags, categories, description, author), each field's length in words, and which terms are words", () => {
    const asset: Asset = {
      id: "x:1",
      provider: "x",
      nativeId: "1",
      title: "Oak Trees",
      type: "model",
      tags: ["tree", "low poly"],
      categories: ["Nature"],
      description: "Two oak trees.",
      author: "Ann",
      url: "https://x.example/1",
      downloadable: true,
    };
    const doc = analyze(asset);
    expect(Object.fromEntries(doc.terms)).toEqual({
      oak: [1, 0, 0, 1, 0],
      tree: [1, 1, 0, 1, 0],
      oaktre: [1, 0, 0, 1, 0],
      low: [0, 1, 0, 0, 0],
      poli: [0, 1, 0, 0, 0],
      lowpoli: [0, 1, 0, 0, 0],
      natur: [0, 0, 1, 0, 0],
      two: [0, 0, 0, 1, 0],
      twooak: [0, 0, 0, 1, 0],
      ann: [0, 0, 0, 0, 1],
    });
    expect(doc.lengths).toEqual([2, 3, 1, 3, 1]);
    expect([...doc.words]).toEqual(["oak", "tree", "low", "poli", "natur", "two", "ann"]);
  });

  it("pairs words within one tag, never across tags", () => {
    const doc = analyze({
      id: "x:2",
      provider: "x",
      nativeId: "2",
      title: "",
      type: "model",
      tags: ["low", "poly"],
      url: "https://x.example/2",
      downloadable: false,
    });
    expect(doc.terms.has("lowpoli")).toBe(false);
  });
});
