import { describe, expect, it } from "vitest";
import { AssetIndex } from "../core/index/search-index.ts";
import { SearchParams } from "../core/model/search-params.ts";
import type { Source } from "../core/model/source.ts";
import { type Asset, type AssetType, SearchResponse } from "../core/schemas/index.ts";
import { BreakerRegistry } from "../core/search/circuit-breaker.ts";
import { searchAll } from "../core/search/search.ts";
import { SearchAssetsOutput } from "../server/mcp/tools.ts";
import { fab } from "../sources/fab.ts";
import { kenney } from "../sources/kenney.ts";
import { testApp } from "./helpers/app.ts";
import { allEvents } from "./helpers/event-stream.ts";
import { fakeIndexedSource } from "./helpers/fake-source.ts";
import { replayRuntime } from "./helpers/replay.ts";
import { syntheticAsset } from "./helpers/synthetic-asset.ts";

const indexedSource = (id: string, assetTypes: AssetType[] = ["model", "sprite", "font"]) => fakeIndexedSource(id, { assetTypes });

/** Downloadable and free, as every indexed record is, so only the text decides. */
const asset = (provider: string, slug: string, extra: Partial<Asset> = {}): Asset =>
  syntheticAsset(provider, slug, { downloadable: true, price: { free: true }, ...extra });

/**
 * Twenty assets holding none of the tests' words: beside them the query's words are as rare as in a
 * real catalogue, where the junk floor weighs each by its IDF (in two assets a word both hold weighs nothing).
 */
const FILLER = Array.from({ length: 20 }, (_, i) => asset("a", `filler-${i}`, { title: `Filler ${i}` }));

async function search(assets: Asset[], sources: Source[], params: Record<string, string>) {
  const deps = { sources, index: AssetIndex.build(assets), runtime: replayRuntime(), breakers: new BreakerRegistry() };
  return SearchResponse.parse(await searchAll(SearchParams.parse(params), deps));
}

describe("searchAll over the index", () => {
  it("gives indexed sources one source rank, their place in the one index ranking: a source's weak best gets no bonus", async () => {
    const strong = ["1", "2", "3"].map((n) => asset("a", `oak-${n}`, { title: `Oak Tree ${n}` }));
    const weak = asset("b", "stump", { title: "Stump", tags: ["oak", "tree"] });
    const res = await search([...strong, weak], [indexedSource("a"), indexedSource("b")], { q: "oak tree" });
    expect(res.results.map((r) => r.id)).toEqual(["a:oak-1", "a:oak-2", "a:oak-3", "b:stump"]);
  });

  it("turns typos on only when exact and stemmed matches do not fill the page, and shows a typo match only where no result holds the word", async () => {
    const assets = [asset("a", "grass", { title: "Field", description: "grass" }), asset("a", "glass", { title: "Glass Jar", tags: ["glass"] })];
    const one = await search(assets, [indexedSource("a")], { q: "grass", limit: "1" });
    expect(one.results.map((r) => r.id)).toEqual(["a:grass"]);
    expect(one.providers[0]).toMatchObject({ count: 1, total: 1 });
    // Beside a result holding the word, a typo's match holds less than half the query, however strong its text: not an answer.
    const two = await search(assets, [indexedSource("a")], { q: "grass", limit: "2" });
    expect(two.results.map((r) => r.id)).toEqual(["a:grass"]);
    expect((await search(assets.slice(1), [indexedSource("a")], { q: "grass", limit: "2" })).results.map((r) => r.id)).toEqual(["a:glass"]);
    // The facets count what the floor shows, every page of it, so a page never says "1 of 2" of a result no page holds.
    expect((await search(assets, [indexedSource("a")], { q: "grass", facets: "true" })).facets?.total).toBe(1);
    // A typo's match of a word others hold in their titles is far weaker: the junk floor leaves it out.
    const strong = [asset("a", "grass", { title: "Grass Field", tags: ["grass"] }), asset("a", "glass", { title: "Glass Jar" })];
    expect((await search(strong, [indexedSource("a")], { q: "grass", limit: "2" })).results.map((r) => r.id)).toEqual(["a:grass"]);
  });

  it("keeps the type parameter a hard filter while a type word only boosts", async () => {
    const assets = [asset("a", "font", { title: "Pixel Sans", type: "font" }), asset("a", "sheet", { title: "Pixel Sheet", type: "sprite" })];
    // As in the catalogue, many fonts say "font" and few assets "pixel": the sheet holds the telling word.
    const fonts = Array.from({ length: 10 }, (_, i) => asset("a", `serif-${i}`, { title: `Serif ${i}`, tags: ["font"], type: "font" }));
    const boosted = await search([...assets, ...fonts, ...FILLER], [indexedSource("a")], { q: "pixel font", limit: "2" });
    expect(boosted.results.map((r) => r.id)).toEqual(["a:font", "a:sheet"]);
    const filtered = await search(assets, [indexedSource("a")], { q: "pixel font", type: "sprite" });
    expect(filtered.results.map((r) => r.id)).toEqual(["a:sheet"]);
  });

  it("pages each indexed source by its own offset through the one ranking, partial matches after complete ones", async () => {
    const assets = [
      ...["1", "2", "3"].map((n) => asset("a", `oak-tree-${n}`, { title: `Oak Tree ${n}` })),
      ...["1", "2"].map((n) => asset("a", `oak-${n}`, { title: `Oak ${n}`, tags: ["oak"], description: "oak" })),
      asset("a", "tree", { title: "Garden", description: "a tree" }),
    ];
    const page = async (offset: number) =>
      (await search([...assets, ...FILLER], [indexedSource("a")], { q: "oak tree", limit: "2", offset: String(offset) })).results.map((r) => r.id);
    // The weak partial match is far weaker than the best of the whole ranking: on no page, not even its own.
    expect([...(await page(0)), ...(await page(2)), ...(await page(4))]).toEqual(["a:oak-tree-1", "a:oak-tree-2", "a:oak-tree-3", "a:oak-1", "a:oak-2"]);
    expect(await page(5)).toEqual([]);
  });
});

describe("a sparse answer (SearchResponse.sparse)", () => {
  const link: Source = {
    id: "linksite",
    name: "Link Site",
    homepage: "https://link.example/",
    description: "a site that blocks bots",
    assetTypes: ["model", "audio"],
    access: "link",
    pricing: "free",
    supportsDownload: false,
    mode: "link",
    searchUrl: (q) => `https://link.example/search?q=${encodeURIComponent(q.q)}`,
    getAsset: async () => null,
  };
  const assets = [
    asset("a", "boom", { title: "Explosion Crate", type: "model" }),
    asset("a", "lamp", { title: "Lamp", description: "a lamp that survived the explosion of the old factory, fully rigged", type: "model" }),
  ];

  it("says why, offers the link-only sites' searches and the type the query's words name that the filter left out", async () => {
    const res = await search([...assets, ...FILLER], [indexedSource("a"), link], { q: "explosion crate sound", type: "model" });
    expect(res.results.map((r) => r.id)).toEqual(["a:boom"]);
    expect(res.sparse).toEqual({
      reason: "only 1 result answers the query well",
      shown: 1,
      suggestions: [{ provider: "linksite", label: "Search Link Site", searchUrl: "https://link.example/search?q=explosion%20crate%20sound" }],
      nearestType: "audio",
    });
  });

  it("is absent when the first page is full, and on a later page that only ends the list", async () => {
    const full = await search(assets, [indexedSource("a"), link], { q: "explosion crate", limit: "1" });
    expect(full.results).toHaveLength(1);
    expect(full.sparse).toBeUndefined();
    const later = await search(assets, [indexedSource("a"), link], { q: "explosion", offset: "1" });
    expect(later.sparse).toBeUndefined();
    // Without a type filter there is no nearer type to offer; nothing at all found says so.
    expect((await search(assets, [indexedSource("a"), link], { q: "zeppelin" })).sparse).toEqual({
      reason: "nothing answers the query",
      shown: 0,
      suggestions: [{ provider: "linksite", label: "Search Link Site", searchUrl: "https://link.example/search?q=zeppelin" }],
    });
  });

  it("is present on a full page whose best result holds less than half the query's words (only through a typo)", async () => {
    const res = await search([asset("a", "glass", { title: "Glass Jar" })], [indexedSource("a")], { q: "grass", limit: "1" });
    expect(res.results.map((r) => r.id)).toEqual(["a:glass"]);
    expect(res.sparse).toEqual({ reason: "the best result matches only 40 % of the query's words", shown: 1, bestShare: 0.4, suggestions: [] });
  });

  it("is in GET /v1/search's JSON over the recordings", async () => {
    const { get } = await testApp({ sources: [kenney, fab] });
    const body = SearchResponse.parse(await (await get("/v1/search?q=explosion%20sound&type=model")).json());
    expect(body.results).toEqual([]);
    // The stream's `done` is the same answer; MCP's search_assets output has the same schema.
    const done = (await allEvents(await get("/v1/search?q=explosion%20sound&type=model", { headers: { accept: "text/event-stream" } }))).at(-1)!;
    expect(done.event).toBe("done");
    expect(SearchResponse.parse(done.data).sparse).toEqual(body.sparse);
    expect(SearchAssetsOutput.shape.sparse).toBe(SearchResponse.shape.sparse);
    expect(body.sparse).toEqual({
      reason: "nothing answers the query",
      shown: 0,
      suggestions: [{ provider: "fab", label: "Search Fab", searchUrl: "https://www.fab.com/search?q=explosion+sound&listing_types=3d-model" }],
      nearestType: "audio",
    });
  });
});
