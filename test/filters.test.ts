import { describe, expect, it } from "vitest";
import { AssetIndex } from "../core/index/search-index.ts";
import { licenseFamily } from "../core/model/license.ts";
import { SearchParams } from "../core/model/search-params.ts";
import type { LiveSource, Source } from "../core/model/source.ts";
import { type Asset, SearchResponse } from "../core/schemas/index.ts";
import { BreakerRegistry } from "../core/search/circuit-breaker.ts";
import { searchAll } from "../core/search/search.ts";
import { testApp } from "./helpers/app.ts";
import { fakeIndexedSource, fakeSearchUrl, fakeSource } from "./helpers/fake-source.ts";
import { FIXTURES, replayRuntime } from "./helpers/replay.ts";
import { syntheticAsset } from "./helpers/synthetic-asset.ts";

// Every filter and sort of /v1/search over the index (synthetic records here, the recorded crawl
// below) and over live answers; the live sources' own upstream URLs are asserted in their tests
// (test/<id>.test.ts).

const CC0 = { name: "CC0 1.0", commercialUse: true, attributionRequired: false, spdx: "CC0-1.0" };
const BY = { name: "CC BY 4.0", commercialUse: true, attributionRequired: true, spdx: "CC-BY-4.0" };
const NC = { name: "CC BY-NC 4.0", commercialUse: false, attributionRequired: true, spdx: "CC-BY-NC-4.0" };
const GPL = { name: "GPL 3.0", spdx: "GPL-3.0-only" };

const record = (slug: string, extra: Partial<Asset> = {}): Asset =>
  syntheticAsset("a", slug, { title: `Chair ${slug}`, downloadable: true, price: { free: true }, ...extra });

/** One indexed source "a" whose records carry every field, and "b" whose records carry none. */
const RECORDS: Asset[] = [
  record("oak", {
    license: CC0,
    author: "Ana Díaz",
    categories: ["Furniture"],
    formats: ["glb", "fbx"],
    resolutions: ["1k", "2k", "4k"],
    polyCount: 800,
    animated: false,
    rigged: false,
    createdAt: "2024-05-01",
    downloads: 10,
  }),
  record("pine", {
    license: BY,
    author: "Bo",
    categories: ["seating"],
    formats: ["gltf"],
    resolutions: ["1k", "8k"],
    polyCount: 5000,
    animated: true,
    rigged: true,
    createdAt: "2025-01-01",
    downloads: 300,
  }),
  record("elm", {
    license: NC,
    author: "ana díaz",
    categories: ["furniture"],
    formats: [".FBX"],
    resolutions: ["2k"],
    polyCount: 20000,
    animated: false,
    rigged: true,
    createdAt: "2023-02-01",
    downloads: 50,
  }),
  record("ash", { license: GPL, formats: ["blend"] }),
  syntheticAsset("b", "bare", { title: "Chair bare", downloadable: true, price: { free: true } }),
];

async function search(params: Record<string, string>, sources: Source[] = [fakeIndexedSource("a"), fakeIndexedSource("b")], assets = RECORDS) {
  const deps = { sources, index: AssetIndex.build(assets), runtime: replayRuntime(), breakers: new BreakerRegistry() };
  return SearchResponse.parse(await searchAll(SearchParams.parse({ q: "chair", ...params }), deps));
}

const ids = (res: SearchResponse) => res.results.map((r) => r.nativeId);
const sorted = (xs: string[]) => [...xs].sort();

describe("filters over the index", () => {
  it.each([
    [{ license: "cc0" }, ["oak"]],
    [{ license: "CC-BY-4.0" }, ["pine"]],
    [{ license: "by,by-nc" }, ["elm", "pine"]],
    [{ license: "cc-by-nc" }, ["elm"]],
    [{ license: "gpl-3.0" }, ["ash"]],
    [{ license: "gpl" }, ["ash"]],
    [{ commercial: "true" }, ["oak", "pine"]],
    [{ commercial: "false" }, ["elm"]],
    [{ attribution: "false" }, ["oak"]],
    [{ attribution: "true" }, ["elm", "pine"]],
    [{ author: "ANA DIAZ" }, ["elm", "oak"]],
    [{ category: "furniture" }, ["elm", "oak"]],
    [{ category: "Seating,nothing" }, ["pine"]],
    [{ format: "fbx" }, ["elm", "oak"]],
    [{ format: "gltf,.blend" }, ["ash", "pine"]],
    [{ resolution: "4k" }, ["oak", "pine"]],
    [{ resolution: "8K" }, ["pine"]],
    [{ maxPolys: "5000" }, ["oak", "pine"]],
    [{ animated: "true" }, ["pine"]],
    [{ animated: "false" }, ["elm", "oak"]],
    [{ rigged: "true" }, ["elm", "pine"]],
    [{ license: "cc0,cc-by", format: "glb,gltf", maxPolys: "1000" }, ["oak"]],
  ])("%o keeps %o", async (params, expected) => {
    const res = await search(params);
    expect(sorted(ids(res))).toEqual(expected);
    expect(res.providers.find((p) => p.provider === "a")).toMatchObject({ status: "ok", count: expected.length, total: expected.length });
  });

  it("skips an indexed source none of whose records carries the field, naming the filter", async () => {
    const res = await search({ maxPolys: "100000" });
    expect(res.providers.find((p) => p.provider === "b")).toEqual({
      provider: "b",
      name: "Fake b",
      status: "skipped",
      count: 0,
      error: "cannot filter by maxPolys: publishes no polygon counts",
      tookMs: 0,
    });
    expect((await search({ sort: "popular" })).providers.find((p) => p.provider === "b")?.error).toBe("cannot sort=popular: publishes no download counts");
    // Without a filter, "b" answers.
    expect((await search({})).providers.find((p) => p.provider === "b")).toMatchObject({ status: "ok", count: 1 });
  });

  it("leaves out excluded sources", async () => {
    const res = await search({ exclude: "a" });
    expect(ids(res)).toEqual(["bare"]);
    expect(res.providers.map((p) => p.provider)).toEqual(["b"]);
  });
});

describe("sort", () => {
  it("newest: by createdAt, newest first, per source page and merged", async () => {
    expect(ids(await search({ sort: "newest", exclude: "b" }))).toEqual(["pine", "oak", "elm", "ash"]);
  });

  it("popular: by downloads, most first", async () => {
    expect(ids(await search({ sort: "popular", exclude: "b" }))).toEqual(["pine", "elm", "oak", "ash"]);
  });

  it("name: by title, A to Z, any case", async () => {
    const assets = ["b", "C", "a"].map((t) => record(t, { title: `${t} chair` }));
    expect(ids(await search({ sort: "name" }, [fakeIndexedSource("a")], assets))).toEqual(["a", "b", "C"]);
  });

  it("a non-relevance sort keeps only the hits holding every word when there are some", async () => {
    const assets = [record("full", { title: "Oak chair", createdAt: "2020-01-01" }), record("part", { title: "Oak table", createdAt: "2026-01-01" })];
    const res = await search({ q: "oak chair", sort: "newest" }, [fakeIndexedSource("a")], assets);
    expect(ids(res)).toEqual(["full"]);
  });
});

describe("facets", () => {
  it("count the whole merged set before paging, and add up to its total", async () => {
    const res = await search({ facets: "true", limit: "1" });
    expect(res.results).toHaveLength(1);
    expect(res.facets).toEqual({
      total: 5,
      type: [{ value: "model", count: 5 }],
      license: ["cc-by", "cc-by-nc", "cc0", "gpl", "unknown"].map((value) => ({ value, count: 1 })),
      source: [
        { value: "a", count: 4 },
        { value: "b", count: 1 },
      ],
      format: [{ value: "fbx", count: 2 }, ...["blend", "glb", "gltf", "unknown"].map((value) => ({ value, count: 1 }))],
    });
  });

  it("are absent unless asked", async () => {
    expect((await search({})).facets).toBeUndefined();
  });
});

/** A live fake whose listings carry licences and dates; its filtering declaration is the test's. */
function liveWith(id: string, filtering: LiveSource["filtering"]): LiveSource {
  const base = fakeSource(id);
  return {
    ...base,
    filtering,
    async search(q, ctx) {
      const res = await base.search(q, ctx);
      const licenses = [CC0, BY, CC0];
      const assets = res.assets.map((a, i) => ({ ...a, license: licenses[i % 3], createdAt: `2024-0${i + 1}-01` }));
      return { assets, total: 99 };
    },
  };
}

async function searchLive(source: LiveSource, params: Record<string, string>) {
  const runtime = replayRuntime();
  const items = ["x", "y", "z"].map((slug) => ({ slug, name: `Chair ${slug}` }));
  runtime.replay.add({
    method: "GET",
    url: fakeSearchUrl(source.id, "chair"),
    body: JSON.stringify({ items }),
    status: 200,
    headers: { "content-type": "application/json" },
  });
  const deps = { sources: [source], index: AssetIndex.empty(), runtime, breakers: new BreakerRegistry() };
  return { res: SearchResponse.parse(await searchAll(SearchParams.parse({ q: "chair", ...params }), deps)), requested: runtime.replay.requested };
}

describe("filters over live answers", () => {
  it("checks a listed filter on what the source returns, and drops the site's total it no longer describes", async () => {
    const { res } = await searchLive(liveWith("l", { upstream: [], listed: ["license"] }), { license: "cc0" });
    expect(ids(res).sort()).toEqual(["x", "z"]);
    expect(res.providers[0]).toMatchObject({ status: "ok", count: 2 });
    expect(res.providers[0]!.total).toBeUndefined();
  });

  it("trusts the site for a filter it applies upstream and its listings do not carry", async () => {
    const { res } = await searchLive(liveWith("l", { upstream: ["maxPolys"], listed: [] }), { maxPolys: "10" });
    expect(ids(res).sort()).toEqual(["x", "y", "z"]);
    expect(res.providers[0]).toMatchObject({ status: "ok", count: 3, total: 99 });
  });

  it("skips a source that can apply the filter neither way, without asking it", async () => {
    const { res, requested } = await searchLive(liveWith("l", { upstream: [], listed: ["license"] }), { format: "glb" });
    expect(res.providers[0]).toMatchObject({ status: "skipped", error: "cannot filter by format: publishes no file formats" });
    expect(requested).toEqual([]);
  });

  it("skips a single-licence source the licence filters leave out, naming the filter and the licence", async () => {
    const source = { ...liveWith("l", { upstream: [], listed: ["license"] }), license: CC0 };
    for (const [params, error] of [
      [{ license: "cc-by" }, "every asset is CC0-1.0, which license=cc-by leaves out"],
      [{ attribution: "true" }, "every asset is CC0-1.0, which attribution=true leaves out"],
    ] as const) {
      const { res, requested } = await searchLive(source, params);
      expect(res.providers[0]).toMatchObject({ status: "skipped", error });
      expect(requested).toEqual([]);
    }
  });

  it("orders a live page newest first when its listings carry dates", async () => {
    const { res } = await searchLive(liveWith("l", { upstream: [], listed: ["newest"] }), { sort: "newest" });
    expect(ids(res)).toEqual(["z", "y", "x"]);
  });
});

describe("filters the search checks on live sources' recorded answers (URLs unchanged: the sites are not asked to apply them)", () => {
  const ENV = { GOOGLE_FONTS_API_KEY: "REPLAY_KEY", FREESOUND_API_KEY: "REPLAY_KEY", THINGIVERSE_TOKEN: "REPLAY_TOKEN" };
  const ask = async (query: string) => {
    const { get } = await testApp({ env: ENV });
    return SearchResponse.parse(await (await get(`/v1/search?${query}`)).json());
  };

  it.each([
    ["q=chair&type=model&providers=blenderkit&attribution=false", ["blenderkit:703fe964-84bb-4468-84bd-f6aa3fb337b4"]],
    [
      "q=brick%20wall&type=texture&providers=sharetextures&attribution=false&commercial=true",
      ["sharetextures:brick-wall-2", "sharetextures:brick-wall-4", "sharetextures:brick-wall-5"],
    ],
  ])("%s keeps exactly %o", async (query, expected) => {
    expect(sorted((await ask(query)).results.map((r) => r.id))).toEqual(expected);
  });

  it.each([
    ["q=sunset&type=hdri&providers=hdrmaps&resolution=20k", (a: Asset) => a.resolutions!.some((r) => Number.parseInt(r, 10) >= 20)],
    ["q=tree&type=model&providers=3dassets&author=3d%20assets", (a: Asset) => a.author === "3D Assets"],
    ["q=wood&type=texture&providers=3dtextures&author=gendo", (a: Asset) => a.author === "Gendo"],
    ["q=chair&type=model&providers=blenderkit&rigged=false", (a: Asset) => a.rigged === false],
    ["q=wood&type=texture&providers=texturecan&license=cc0&format=zip", (a: Asset) => a.license?.spdx === "CC0-1.0" && a.formats!.includes("zip")],
  ])("%s: every result holds", async (query, holds) => {
    const res = await ask(query);
    expect(res.results.length, query).toBeGreaterThan(0);
    for (const r of res.results) expect(holds(r), r.id).toBe(true);
  });

  it("an answer none of whose listings passes is ok with no results, not unfiltered", async () => {
    const res = await ask("q=chair&type=model&providers=blenderkit&rigged=true");
    expect(res.results).toEqual([]);
    expect(res.providers).toEqual([expect.objectContaining({ provider: "blenderkit", status: "ok", count: 0 })]);
  });

  it("sorts live pages: popular by the downloads the site publishes, newest by date across sources", async () => {
    const popular = await ask("q=tree&type=model&providers=3dassets&sort=popular");
    expect(popular.results.map((r) => r.downloads)).toEqual([20, 14, 11]);
    const newest = await ask("q=tree&type=model&providers=3dassets,texturescom&sort=newest");
    const dates = newest.results.map((r) => r.createdAt!);
    expect(dates).toHaveLength(4);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it("skips the sources of the same search that cannot apply the filter, naming it", async () => {
    const res = await ask("q=wood&type=texture&providers=3dtextures,texturecan&author=gendo");
    expect(res.providers.find((p) => p.provider === "texturecan")).toMatchObject({ status: "skipped", error: "cannot filter by author: publishes no authors" });
    expect(res.results.every((r) => r.provider === "3dtextures")).toBe(true);
  });
});

describe("GET /v1/search with filters, over the recordings", () => {
  it.each([
    ["license=nope", "unknown license 'nope'; known licences and families: "],
    ["sort=sideways", "sort must be one of relevance, newest, name, popular, got 'sideways'"],
    ["maxPolys=-1", "maxPolys must be a whole number at least 1, got '-1'"],
    ["resolution=huge", "resolution must be a minimum such as 1k, 2k, 4k or 8k, got 'huge'"],
    ["format=gl%20b", "unknown format 'gl b'"],
    ["commercial=maybe", "commercial must be true or false, got 'maybe'"],
    ["exclude=nosuch", "unknown source 'nosuch'"],
    [`author=${"x".repeat(101)}`, "author must be at most 100 characters"],
  ])("%s → 400 naming the value", async (query, message) => {
    const { get } = await testApp();
    const res = await get(`/v1/search?q=chair&${query}`);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await res.json()) as { error: string }).error).toContain(message);
  });

  it.each([
    ["license=cc0&type=hdri", (a: Asset) => a.license?.spdx === "CC0-1.0"],
    ["license=ofl&type=font", (a: Asset) => licenseFamily(a.license!.spdx!) === "ofl"],
    ["author=greg%20zaal", (a: Asset) => a.author === "Greg Zaal"],
    ["category=brick", (a: Asset) => a.categories!.includes("brick")],
    ["format=exr", (a: Asset) => a.formats!.includes("exr")],
    ["resolution=16k", (a: Asset) => a.resolutions!.includes("16k")],
    ["animated=true", (a: Asset) => a.animated === true],
    ["rigged=true", (a: Asset) => a.rigged === true],
    ["attribution=false&type=texture", (a: Asset) => a.license?.attributionRequired === false],
  ])("the index honours %s", async (query, holds) => {
    const { get } = await testApp();
    const body = SearchResponse.parse(await (await get(`/v1/search?${query}&providers=polyhaven,fontsource,quaternius,kenney,cgbookcase&limit=50`)).json());
    expect(body.results.length, query).toBeGreaterThan(0);
    for (const r of body.results) expect(holds(r), `${query}: ${r.id}`).toBe(true);
  });

  it("keeps exactly ambientCG's woods with a 12K or larger download for q=wood&providers=ambientcg&resolution=12k (its downloads CSV)", async () => {
    const { get, replay } = await testApp();
    const body = SearchResponse.parse(await (await get("/v1/search?q=wood&providers=ambientcg&resolution=12k")).json());
    const woods = "Wood034 Wood047 WoodChips002 WoodFloor002 WoodFloor030 WoodFloor031 WoodFloor032 WoodFloor033 WoodFloor042 WoodFloor043 WoodFloor044";
    expect(sorted(body.results.map((r) => r.id))).toEqual(woods.split(" ").map((id) => `ambientcg:${id}`));
    expect(replay.requested).toEqual([]);
  });

  it("answers q=chair&type=model&license=cc0&format=glb&sort=newest&facets=true with every result honouring every filter", async () => {
    const { get, replay } = await testApp();
    // Stand-in: BlenderKit's recorded chair search answers the filtered URL the source asks
    // (test/blenderkit.test.ts asserts that URL), so a live source takes part in the merge.
    replay.add(
      {
        method: "GET",
        url: "https://www.blenderkit.com/api/v1/search/?query=chair+asset_type%3Amodel%2Cprintable%2Cscene+license%3Acc_zero+order%3A-created&page_size=24",
        file: "blenderkit/search_chair.json",
        status: 200,
        headers: { "content-type": "application/json" },
      },
      FIXTURES,
    );
    const res = await get("/v1/search?q=chair&type=model&license=cc0&format=glb&sort=newest&facets=true");
    expect(res.status).toBe(200);
    const body = SearchResponse.parse(await res.json());
    expect(body.results.length).toBeGreaterThan(0);
    for (const r of body.results) {
      expect(r.type, r.id).toBe("model");
      expect(r.license?.spdx, r.id).toBe("CC0-1.0");
      expect(r.formats, r.id).toContain("glb");
    }
    const dates = body.results.map((r) => r.createdAt ?? "");
    expect(dates).toEqual([...dates].sort().reverse());
    const facets = body.facets!;
    const sum = (counts: { count: number }[]) => counts.reduce((n, c) => n + c.count, 0);
    expect(facets.total).toBeGreaterThanOrEqual(body.results.length);
    for (const name of ["type", "license", "source"] as const) expect(sum(facets[name]), name).toBe(facets.total);
    expect(facets.license).toEqual([{ value: "cc0", count: facets.total }]);
    expect(facets.format.find((f) => f.value === "glb")?.count).toBe(facets.total);
    // A source that publishes no licences is skipped with the filter named, never answered unfiltered.
    for (const p of body.providers.filter((p) => p.status === "skipped" && p.error?.startsWith("cannot")))
      expect(p.error).toMatch(/^cannot (filter by |sort=)\w+: publishes no /);
    expect(body.providers.find((p) => p.provider === "cgtrader")).toMatchObject({
      status: "skipped",
      error: "cannot filter by license: publishes no licences",
    });
  });
});
