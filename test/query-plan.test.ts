import { describe, expect, it } from "vitest";
import { gateTypos, planQuery } from "../core/relevance/query-plan.ts";
import { ASSET_TYPES } from "../core/schemas/index.ts";
import { SYNONYM_EXPANSIONS, SYNONYM_GROUPS } from "../core/text/synonyms.ts";
import { TYPE_WORDS } from "../core/text/type-words.ts";
import { words } from "../core/text/words.ts";

const synonymsOf = (q: string) =>
  planQuery(q)
    .expansions.filter((e) => e.kind === "synonym")
    .map((e) => `${e.term}@${e.words.join(",")}`);

describe("planQuery: words and their exact terms", () => {
  it("stems each word, and pairs adjacent words written together, both as exact terms", () => {
    const plan = planQuery("Low-Poly Trees");
    expect(plan.words).toEqual([
      { text: "low", term: "low", required: true },
      { text: "poly", term: "poli", required: true },
      { text: "trees", term: "tree", required: true },
    ]);
    expect(plan.expansions.filter((e) => e.kind === "exact")).toEqual([
      { term: "low", kind: "exact", words: [0] },
      { term: "poli", kind: "exact", words: [1] },
      { term: "tree", kind: "exact", words: [2] },
      { term: "lowpoli", kind: "exact", words: [0, 1] },
      { term: "polytre", kind: "exact", words: [1, 2] },
    ]);
  });

  it("matches the last word as a prefix too, from three letters on", () => {
    expect(planQuery("wooden chai").prefix).toEqual({ word: 1, term: "chai" });
    expect(planQuery("wooden ch").prefix).toBeUndefined();
    expect(planQuery("").prefix).toBeUndefined();
  });

  it("starts with typos off", () => {
    expect(planQuery("victorain chair").typos).toBe(false);
  });
});

describe("planQuery: synonyms", () => {
  it("expands a group's member to every other member, as synonyms of that word", () => {
    expect(synonymsOf("sofa")).toEqual(["couch@0", "sette@0"]);
    expect(synonymsOf("couches")).toEqual(["sofa@0", "sette@0"]);
  });

  it("expands one-way entries one way only", () => {
    expect(synonymsOf("sky")).toEqual(["skybox@0"]);
    expect(synonymsOf("skybox")).toEqual([]);
    // A part of an interface finds UI assets; "ui" does not find every button.
    expect(synonymsOf("button")).toEqual(["ui@0"]);
    expect(synonymsOf("ui")).not.toContain("button@0");
  });

  it("lets a phrase stand for all its words, and a two-word synonym be matched written together", () => {
    expect(synonymsOf("code font")).toContain("monospac@0,1");
    expect(synonymsOf("sfx")).toContain("soundeffect@0");
  });

  it("never repeats a word's own term as its synonym", () => {
    expect(synonymsOf("leaves")).toEqual(["leaf@0", "foliag@0"]);
  });

  it("holds tables whose record sides are one word or two and whose query sides are not empty", () => {
    const phrases = [...SYNONYM_GROUPS.flat(), ...Object.keys(SYNONYM_EXPANSIONS), ...Object.values(SYNONYM_EXPANSIONS).flat()];
    for (const phrase of phrases) expect(words(phrase).length, phrase).toBeGreaterThan(0);
    for (const phrase of [...SYNONYM_GROUPS.flat(), ...Object.values(SYNONYM_EXPANSIONS).flat()]) expect(words(phrase).length, phrase).toBeLessThanOrEqual(2);
  });
});

describe("planQuery: type words", () => {
  it("makes a type word optional and a boost of its types", () => {
    const plan = planQuery("pixel fonts");
    expect(plan.words.map((w) => [w.text, w.required])).toEqual([
      ["pixel", true],
      ["fonts", false],
    ]);
    expect(plan.boost).toEqual(["font"]);
    expect(planQuery("ui sounds").boost).toEqual(["ui", "audio"]);
    expect(planQuery("pbr rock").boost).toEqual(["material", "texture"]);
    expect(planQuery("rock").boost).toEqual([]);
  });

  it("holds one-word entries naming known asset types", () => {
    for (const [word, types] of Object.entries(TYPE_WORDS)) {
      expect(words(word), word).toHaveLength(1);
      for (const t of types) expect(ASSET_TYPES).toContain(t);
    }
  });
});

describe("gateTypos", () => {
  const plan = planQuery("victorain chair");
  it("turns typos on only when fewer assets than wanted match every word", () => {
    expect(gateTypos(plan, 3, 24).typos).toBe(true);
    expect(gateTypos(plan, 24, 24).typos).toBe(false);
  });

  it("never for a query whose required words are all under five letters", () => {
    expect(gateTypos(planQuery("sofa rug"), 0, 24).typos).toBe(false);
    expect(gateTypos(planQuery("grass icons"), 0, 24).typos).toBe(true);
    expect(gateTypos(planQuery("iconz sofa"), 0, 24).typos).toBe(true);
  });
});
