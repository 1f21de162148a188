import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import { type SourceQuery, toProvider } from "../core/model/source.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { thingiverse, thingLicense } from "../sources/thingiverse.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { FIXTURES, replayContext } from "./helpers/replay.ts";

// Recordings: test/fixtures/thingiverse/manifest.json (the Openverse catalog team's Thingiverse notes).
// /search/beer/ is a stand-in served with the recorded /newest excerpt; bodies marked "scripted" are
// made up here (the current { total, hits } search shape and the census).

const NOW = new Date("2026-11-22T00:00:00Z");
const ENV = { THINGIVERSE_TOKEN: "REPLAY_TOKEN" };
const API = "https://api.thingiverse.com";
const NEWEST = `${API}/newest?per_page=30&page=1`;
const BEER = `${API}/search/beer/?type=things&per_page=30&page=1&sort=relevant`;
const THING = `${API}/things/3730558`;

const query = sourceQuery;

describe("thingiverse: metadata", () => {
  it("is a live model source that needs THINGIVERSE_TOKEN and offers no direct downloads", () => {
    expect(thingiverse).toMatchObject({
      id: "thingiverse",
      name: "Thingiverse",
      homepage: "https://www.thingiverse.com",
      assetTypes: ["model"],
      access: "api",
      pricing: "free",
      supportsDownload: false,
      mode: "live",
      key: { env: "THINGIVERSE_TOKEN", required: true },
    });
    expect(toProvider(thingiverse, {}).enabled).toBe(false);
  });
});

describe("thingiverse: search", () => {
  it("lists /newest for an empty query and maps the recorded summaries", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    const res = await thingiverse.search(query(""), ctx);
    expect(replay.requested).toEqual([NEWEST]);
    expect(res.total).toBeUndefined();
    expect(res.searchUrl).toBe("https://www.thingiverse.com/newest");
    for (const asset of res.assets) Asset.parse(asset);
    expect(res.assets[0]).toStrictEqual({
      id: "thingiverse:4002927",
      provider: "thingiverse",
      nativeId: "4002927",
      title: "Beer can coster",
      type: "model",
      tags: [],
      url: "https://www.thingiverse.com/thing:4002927",
      thumbnailUrl: "https://cdn.thingiverse.com/site/img/default/Gears_thumb_medium.jpg",
      author: "nwasicsko",
      price: { free: true },
      downloadable: false,
    });
    // Its "thumbnail" is an .stl file: not kept as an image.
    expect(res.assets[1]).toMatchObject({ title: "Cylinder", author: "LvdBroek" });
    expect(res.assets[1]!.thumbnailUrl).toBeUndefined();
  });

  it("asks /search/<term>/ for a query (stand-in answer) and respects the limit", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    const res = await thingiverse.search(query("beer", { limit: 1 }), ctx);
    expect(replay.requested).toEqual([BEER]);
    expect(res.assets.map((a) => a.title)).toEqual(["Beer can coster"]);
    expect(res.searchUrl).toBe("https://www.thingiverse.com/search?q=beer&type=things&sort=relevant");
  });

  it("reads the current { total, hits } shape and maps the offset onto pages of 30 (scripted)", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    const [item] = JSON.parse(readFileSync(join(FIXTURES, "thingiverse", "newest_per_page_30_page_1_excerpt.json"), "utf8"));
    const hits = (p: number) => Array.from({ length: 30 }, (_, i) => ({ ...item, id: (p - 1) * 30 + i, name: `Thing ${(p - 1) * 30 + i}` }));
    for (const p of [1, 2]) {
      replay.add({
        url: `${API}/search/gear%20box/?type=things&per_page=30&page=${p}&sort=relevant`,
        body: JSON.stringify({ total: 4321, hits: hits(p) }),
        note: "scripted",
      });
    }
    const res = await thingiverse.search(query("gear box", { offset: 24, limit: 10 }), ctx);
    expect(replay.requested).toEqual([1, 2].map((p) => `${API}/search/gear%20box/?type=things&per_page=30&page=${p}&sort=relevant`));
    expect(res.total).toBe(4321);
    expect(res.assets.map((a) => a.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Thing ${24 + i}`));
  });

  it("keeps page 1's things when the next page of the window fails (scripted page 1, page 2 missing)", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    const [item] = JSON.parse(readFileSync(join(FIXTURES, "thingiverse", "newest_per_page_30_page_1_excerpt.json"), "utf8"));
    const hits = Array.from({ length: 30 }, (_, i) => ({ ...item, id: i, name: `Thing ${i}` }));
    const page = (p: number) => `${API}/search/gear%20box/?type=things&per_page=30&page=${p}&sort=relevant`;
    replay.add({ url: page(1), body: JSON.stringify({ total: 4321, hits }), note: "scripted" });
    const res = await thingiverse.search(query("gear box", { offset: 24, limit: 10 }), ctx);
    expect(replay.requested).toEqual([page(1), page(2)]);
    expect(res.assets.map((a) => a.title)).toEqual(Array.from({ length: 6 }, (_, i) => `Thing ${24 + i}`));
    expect(res.total).toBe(4321);
    // A failing first page still fails the search.
    const other = replayContext({ now: NOW, env: ENV });
    other.replay.add({ url: page(1), status: 500, body: "oops", note: "scripted" });
    await expect(thingiverse.search(query("gear box", { offset: 24, limit: 10 }), other.ctx)).rejects.toThrow();
  });

  it("asks nothing for other types, for downloadable-only searches, or without the token", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    expect((await thingiverse.search(query("beer", { types: ["audio"] }), ctx)).assets).toEqual([]);
    expect((await thingiverse.search(query("beer", { downloadable: true }), ctx)).assets).toEqual([]);
    expect(replay.requested).toEqual([]);
    const bare = replayContext({ now: NOW });
    await expect(thingiverse.search(query("beer"), bare.ctx)).rejects.toThrow(/^thingiverse: THINGIVERSE_TOKEN is not set/);
    expect(bare.replay.requested).toEqual([]);
  });

  it("rejects a changed answer with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    replay.add({ url: NEWEST, body: '{"error":"changed"}' });
    await expect(thingiverse.search(query(""), ctx)).rejects.toThrow(/^thingiverse: .* did not answer a list of things/);
    const other = replayContext({ now: NOW, env: ENV });
    other.replay.add({ url: NEWEST, body: '[{"name":"no id"}]' });
    await expect(thingiverse.search(query(""), other.ctx)).rejects.toThrow(/^thingiverse: thing #0 .* unexpected shape/);
  });
});

describe("thingiverse: getAsset", () => {
  it("asks the thing, its files and its tags; every file needs the token", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    const details = await thingiverse.getAsset("3730558", ctx);
    expect(replay.requested).toEqual([THING, `${THING}/files`, `${THING}/tags`]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({
      id: "thingiverse:3730558",
      title: "Alfawise U30 - Guida filamento",
      type: "model",
      url: "https://www.thingiverse.com/thing:3730558",
      thumbnailUrl: "https://cdn.thingiverse.com/renders/10/64/d6/81/dd/41ae1bdb59f5a16ec9329a2a7cf65942_preview_large.jpg",
      author: "scigola",
      license: licenseById("CC0-1.0"), // "Creative Commons - Public Domain Dedication"
      price: { free: true },
      formats: ["stl", "fcstd"],
      tags: ["Alfawise_U30", "filament", "filamento", "guida", "guide", "rollers", "rulli"],
      downloadable: false,
      createdAt: "2019-10-15T13:12:43+00:00",
    });
    expect(details!.description).toMatch(/^guidafilo per Alfawise U30 con 4 rulli/);
    expect(details!.files).toStrictEqual([
      {
        url: "https://api.thingiverse.com/files/6867550/download",
        filename: "Clip_di_tenuta.stl",
        format: "stl",
        sizeBytes: 11084,
        group: "stl",
        requiresAuth: true,
      },
      {
        url: "https://api.thingiverse.com/files/6867552/download",
        filename: "Cont_rulli.stl",
        format: "stl",
        sizeBytes: 50084,
        group: "stl",
        requiresAuth: true,
      },
      {
        url: "https://api.thingiverse.com/files/6867554/download",
        filename: "Guidafilo4_rulli_removibile.FCStd",
        format: "fcstd",
        sizeBytes: 154826,
        group: "fcstd",
        requiresAuth: true,
      },
    ]);
  });

  it("answers null for an unknown thing (404) and for ids that are not numbers", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    for (const suffix of ["", "/files", "/tags"]) {
      replay.add({ url: `${API}/things/1${suffix}`, status: 404, body: '{"error":"Not Found"}', note: "scripted 404" });
    }
    expect(await thingiverse.getAsset("1", ctx)).toBeNull();
    expect(await thingiverse.getAsset("thing:1", ctx)).toBeNull();
    expect(replay.requested).toEqual([`${API}/things/1`, `${API}/things/1/files`, `${API}/things/1/tags`]);
  });

  it("rejects a changed thing with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    replay.add({ url: `${THING}/files`, body: '{"files":[]}' });
    await expect(thingiverse.getAsset("3730558", ctx)).rejects.toThrow(/^thingiverse: .*\/files is not a list of files/);
  });

  it("maps Thingiverse's licence names without claiming a Creative Commons version", () => {
    expect(thingLicense("Creative Commons - Attribution")).toStrictEqual({
      name: "Creative Commons - Attribution",
      commercialUse: true,
      attributionRequired: true,
    });
    expect(thingLicense("Creative Commons - Attribution - Non-Commercial - Share Alike")).toStrictEqual({
      name: "Creative Commons - Attribution - Non-Commercial - Share Alike",
      commercialUse: false,
      attributionRequired: true,
    });
    expect(thingLicense("Creative Commons - Attribution - No Derivatives")!.commercialUse).toBe(true);
    expect(thingLicense("GNU - GPL")).toStrictEqual({ name: "GNU - GPL" });
    expect(thingLicense(null)).toBeUndefined();
  });
});

describe("thingiverse: census", () => {
  it("uses the total of one empty search (scripted body: no recording of it exists)", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    const url = `${API}/search/?type=things&per_page=1&page=1&sort=newest`;
    const [item] = JSON.parse(readFileSync(join(FIXTURES, "thingiverse", "newest_per_page_30_page_1_excerpt.json"), "utf8"));
    replay.add({ url, body: JSON.stringify({ total: 2500000, hits: [item] }), note: "scripted" });
    const census = await thingiverse.census(ctx);
    expect(replay.requested).toEqual([url]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toMatchObject({
      id: "thingiverse",
      total: 2500000,
      free: 2500000,
      byType: { model: 2500000 },
      highlights: [{ label: "Newest thing", title: "Beer can coster", url: "https://www.thingiverse.com/thing:4002927" }],
      countedAt: "2026-11-22T00:00:00.000Z",
    });
    const other = replayContext({ now: NOW, env: ENV });
    other.replay.add({ url, body: JSON.stringify([item]), note: "scripted" });
    await expect(thingiverse.census(other.ctx)).rejects.toThrow(/^thingiverse: .* answered no total/);
  });
});

describe("thingiverse: filters", () => {
  const DIR = join(FIXTURES, "thingiverse");
  it("asks the search with the site's sort and licence code (STAND-IN: the recorded /newest excerpt served for these URLs)", async () => {
    const cases: Array<[string, Partial<SourceQuery>]> = [
      [`${API}/search/beer/?type=things&per_page=30&page=1&sort=popular&license=cc-sa`, { q: "beer", sort: "popular", filters: { license: ["cc-by-sa"] } }],
      [`${API}/search/?type=things&per_page=30&page=1&sort=newest&license=pd0`, { q: "", sort: "newest", filters: { license: ["cc0", "cc0-1.0"] } }],
      [`${API}/search/?type=things&per_page=30&page=1&sort=popular`, { q: "", sort: "popular" }],
    ];
    for (const [url, over] of cases) {
      const { ctx, replay } = replayContext({ now: NOW, env: ENV });
      replay.add({ method: "GET", url, file: "newest_per_page_30_page_1_excerpt.json", status: 200, headers: {} }, DIR);
      const res = await thingiverse.search(query(over.q ?? "", { limit: 2, ...over }), ctx);
      expect(replay.requested).toEqual([url]);
      expect(res.assets).toHaveLength(2);
    }
  });

  it("answers nothing, without asking, for licences with no single code (listings carry no licence to check)", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    for (const license of [["cc-by-4.0"], ["cc-by", "cc-by-sa"], ["mit"]]) {
      expect((await thingiverse.search(query("beer", { filters: { license } }), ctx)).assets).toEqual([]);
    }
    expect(replay.requested).toEqual([]);
  });

  it("declares what its listings carry, and nothing they do not", async () => {
    const { ctx } = replayContext({ now: NOW, env: ENV });
    const { assets } = await thingiverse.search(query(""), ctx);
    const listed = thingiverse.filtering!.listed;
    expectListedExactly(assets, listed);
  });
});
