import { describe, expect, it } from "vitest";
import { embeddedAssets, syntheticCatalogue } from "../bench/scale-catalogue.ts";
import { Asset } from "../core/schemas/index.ts";

const real = embeddedAssets();
const countBy = (assets: readonly Asset[], key: (a: Asset) => string) => {
  const counts: Record<string, number> = {};
  for (const a of assets) counts[key(a)] = (counts[key(a)] ?? 0) + 1;
  return counts;
};

describe("the scale bench's synthetic catalogue", () => {
  it("is the same for the same seed, prefix-stable, and different for another seed", () => {
    const a = [...syntheticCatalogue(real, 500, 7)];
    expect([...syntheticCatalogue(real, 500, 7)]).toEqual(a);
    expect([...syntheticCatalogue(real, 200, 7)]).toEqual(a.slice(0, 200));
    expect([...syntheticCatalogue(real, 500, 8)].map((x) => x.title)).not.toEqual(a.map((x) => x.title));
  });

  it("keeps the provider and type mix exactly over whole cycles of the real records, with unique ids", () => {
    const assets = [...syntheticCatalogue(real, real.length * 2, 1)];
    const double = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v * 2]));
    expect(countBy(assets, (a) => a.provider)).toEqual(double(countBy(real, (a) => a.provider)));
    expect(countBy(assets, (a) => a.type)).toEqual(double(countBy(real, (a) => a.type)));
    expect(new Set(assets.map((a) => a.id)).size).toBe(assets.length);
    expect(new Set(assets.map((a) => a.url)).size).toBe(assets.length);
  });

  it("writes records of the Asset schema, each with its template's fields and new words", () => {
    const assets = [...syntheticCatalogue(real, 2000, 3)];
    const fields = (a: Asset) => Object.keys(a).sort().join(",");
    const realShapes = new Set(real.map(fields));
    for (const a of assets) {
      expect(Asset.strict().parse(a)).toEqual(a);
      expect(a.id).toBe(`${a.provider}:${a.nativeId}`);
      expect(realShapes.has(fields(a))).toBe(true);
    }
    const realTitles = new Set(real.map((a) => a.title));
    expect(assets.filter((a) => realTitles.has(a.title)).length).toBeLessThan(assets.length / 10);
  });

  it("grows its vocabulary with its size, beyond the real records'", () => {
    const vocabulary = (assets: Iterable<Asset>) => {
      const words = new Set<string>();
      for (const a of assets) for (const w of `${a.title} ${a.tags.join(" ")} ${a.description ?? ""}`.toLowerCase().split(/[^\p{L}\p{N}]+/u)) words.add(w);
      return words.size;
    };
    const small = vocabulary(syntheticCatalogue(real, 2000, 1));
    const large = vocabulary(syntheticCatalogue(real, 20_000, 1));
    expect(large).toBeGreaterThan(small * 1.5);
    expect(large).toBeGreaterThan(vocabulary(real));
  });
});
