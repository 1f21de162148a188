import { describe, expect, it } from "vitest";
import type { SourceQuery } from "../core/model/source.ts";
import { SourceError } from "../core/model/source-error.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { pageWindow } from "../sources/kit/page-window.ts";
import { polyfork, searchApiUrl } from "../sources/polyfork.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/polyfork/manifest.json (real API answers, not trimmed).
// Requests with no recording fail as network errors that name the URL, which still lets a test
// assert the exact URL asked. Bodies written inline below are marked SYNTHETIC.

const NOW = new Date("2026-11-22T00:00:00Z");
const API = "https://polyfork.dev/api/assets";
const FIXTURES = `${import.meta.dirname}/fixtures/polyfork`;
const LICENSE = {
  name: "Use in commercial projects, no attribution. No redistribution of the files themselves.",
  url: "https://polyfork.dev/licensing",
};

const query = (q: string, over: Partial<SourceQuery> = {}) => sourceQuery(q, { limit: 5, ...over });

/** A SYNTHETIC search answer: the recorded envelope shape with minimal items. */
const synthetic = (ids: string[], total: number) =>
  JSON.stringify({ total, page: 1, per_page: ids.length, assets: ids.map((id) => ({ id, title: id, free: false, plan: "pro" })) });

describe("polyfork: metadata", () => {
  it("is a live, freemium API source of models with direct downloads for free assets", () => {
    expect(polyfork).toMatchObject({
      id: "polyfork",
      name: "Polyfork",
      homepage: "https://polyfork.dev",
      mode: "live",
      access: "api",
      pricing: "freemium",
      supportsDownload: true,
      unit: "assets",
      assetTypes: ["model"],
      license: LICENSE,
    });
    // An unknown licence: no flags, never treated as free to use.
    expect(polyfork.license).not.toHaveProperty("commercialUse");
    expect(polyfork).not.toHaveProperty("crawl");
  });
});

describe("polyfork: search", () => {
  it("asks the recorded URL and maps every item", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await polyfork.search(query("rock"), ctx);

    expect(replay.requested).toEqual([`${API}?q=rock&per_page=5`]);
    expect(result.total).toBe(59);
    expect(result.assets.map((a) => `${a.nativeId} ${a.price?.free} ${a.downloadable}`)).toEqual([
      "lava-rock-pile-d56d19 false false",
      "live-rock-piece-6c7bdf false false",
      "rock-bommie-column-0f8a9b true true",
      "rock-cave-ledge-2a9532 true true",
      "aquascape-rock-arch-48bf5e true true",
    ]);
    for (const asset of result.assets) expect(Asset.parse(asset)).toStrictEqual(asset);
    expect(result.assets[2]).toStrictEqual({
      id: "polyfork:rock-bommie-column-0f8a9b",
      provider: "polyfork",
      nativeId: "rock-bommie-column-0f8a9b",
      title: "Rock Bommie Column",
      type: "model",
      tags: ["office-reefscape-kit-1afd7c"],
      categories: ["prop"],
      url: "https://polyfork.dev/asset/rock-bommie-column-0f8a9b",
      thumbnailUrl: "https://polyfork.dev/files/rock-bommie-column-0f8a9b/renders/hero.png",
      license: LICENSE,
      price: { free: true },
      formats: ["glb"],
      polyCount: 334,
      rigged: false,
      downloadable: true,
    });
    expect(result.assets[0]).toMatchObject({ title: "Lava Rock Pile", price: { free: false }, downloadable: false, polyCount: 866 });
  });

  it("respects a smaller limit by asking that page size", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    await expect(polyfork.search(query("rock", { limit: 3 }), ctx)).rejects.toThrow(/no recorded response/);
    expect(replay.requested).toEqual([`${API}?q=rock&per_page=3`]);
  });

  it("maps offset to pages: a whole page is one request, page 2 carries &page=2", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    await expect(polyfork.search(query("rock", { offset: 5 }), ctx)).rejects.toThrow(/no recorded response/);
    expect(replay.requested).toEqual([`${API}?q=rock&per_page=5&page=2`]);
  });

  it("asks two pages for an offset inside a page and slices from the offset (SYNTHETIC bodies)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}?q=tree&per_page=3`, body: synthetic(["a", "b", "c"], 7), note: "SYNTHETIC" });
    replay.add({ url: `${API}?q=tree&per_page=3&page=2`, body: synthetic(["d", "e", "f"], 7), note: "SYNTHETIC" });
    const result = await polyfork.search(query("tree", { limit: 3, offset: 2 }), ctx);
    expect([...replay.requested].sort()).toEqual([`${API}?q=tree&per_page=3`, `${API}?q=tree&per_page=3&page=2`]);
    expect(result.assets.map((a) => a.nativeId)).toEqual(["c", "d", "e"]);
    expect(result.total).toBe(7);
    expect(pageWindow(2, 3, 3)).toEqual({ pages: [1, 2], skip: 2 });
    expect(pageWindow(10, 5, 5)).toEqual({ pages: [3], skip: 0 });
  });

  it("keeps page 1's results when the next page of the window fails (page 2 is not recorded)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await polyfork.search(query("rock", { offset: 2 }), ctx);
    expect([...replay.requested].sort()).toEqual([`${API}?q=rock&per_page=5`, `${API}?q=rock&per_page=5&page=2`]);
    expect(result.assets.map((a) => a.nativeId)).toEqual(["rock-bommie-column-0f8a9b", "rock-cave-ledge-2a9532", "aquascape-rock-arch-48bf5e"]);
    expect(result.total).toBe(59);
    // A failing first page still fails the search.
    const other = replayContext({ now: NOW });
    other.replay.add({ url: `${API}?q=rock&per_page=5`, status: 500, body: "oops" });
    await expect(polyfork.search(query("rock", { offset: 2 }), other.ctx)).rejects.toBeInstanceOf(SourceError);
  });

  it("asks per_page=24 with the default limit (manifest STAND-IN: the recorded page of 5)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await polyfork.search(query("rock", { limit: 24 }), ctx);
    expect(replay.requested).toEqual([`${API}?q=rock&per_page=24`]);
    expect(result.assets).toHaveLength(5);
  });

  it("adds free=1 for free (and for downloadable, which is the same set here)", async () => {
    for (const over of [{ free: true }, { downloadable: true }]) {
      const { ctx, replay } = replayContext({ now: NOW });
      await expect(polyfork.search(query("rock", over), ctx)).rejects.toThrow(/no recorded response/);
      expect(replay.requested).toEqual([`${API}?q=rock&per_page=5&free=1`]);
    }
    expect(searchApiUrl("old tree", 24, 3, true)).toBe(`${API}?q=old%20tree&per_page=24&free=1&page=3`);
  });

  it("asks nothing when the types exclude models", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    expect(await polyfork.search(query("rock", { types: ["hdri"] }), ctx)).toEqual({ assets: [], total: 0 });
    expect(replay.requested).toEqual([]);
  });

  it("rejects a malformed answer with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}?q=rock&per_page=5`, body: '{"error":"changed"}' });
    await expect(polyfork.search(query("rock"), ctx)).rejects.toThrow(/^polyfork: /);
  });
});

describe("polyfork: filters", () => {
  /** STAND-IN: the recorded body of the unfiltered 'rock' search (per_page=5), served for the filtered URL. */
  const standIn = (replay: ReturnType<typeof replayContext>["replay"], url: string) =>
    replay.add({ method: "GET", url, file: "search_rock.json", status: 200, headers: { "content-type": "application/json" } }, FIXTURES);

  it("asks one class and the newest first upstream", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const url = `${API}?q=rock&per_page=5&class=prop&sort=latest`;
    standIn(replay, url);
    const res = await polyfork.search(query("rock", { filters: { category: ["prop"] }, sort: "newest" }), ctx);
    expect(replay.requested).toEqual([url]);
    expect(res.assets).toHaveLength(5);
    expect(searchApiUrl("rock", 5, 2, true, { class: "building", sort: undefined })).toBe(`${API}?q=rock&per_page=5&free=1&class=building&page=2`);
  });

  it("leaves out the class when a wanted category is no class, or several are wanted", async () => {
    for (const category of [
      ["prop", "furniture"],
      ["prop", "building"],
    ]) {
      const { ctx, replay } = replayContext({ now: NOW });
      await polyfork.search(query("rock", { filters: { category } }), ctx);
      expect(replay.requested).toEqual([`${API}?q=rock&per_page=5`]);
    }
  });

  it("declares what its search items carry, and nothing they do not", async () => {
    const { ctx } = replayContext({ now: NOW });
    const { assets } = await polyfork.search(query("rock"), ctx);
    const listed = polyfork.filtering!.listed;
    // Every search item has formats ["glb"]; the conversions (fbx, usdz, obj) are only in details, so format is not listed.
    expectListedExactly(assets, listed, { mayCarry: ["format"] });
    expect(assets.every((a) => a.formats?.join() === "glb")).toBe(true);
    expect(polyfork.filtering!.upstream).toEqual(["category", "newest"]);
  });
});

describe("polyfork: getAsset", () => {
  it("lists a free asset's direct GLB and module, and its conversions as needing the account key", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await polyfork.getAsset("geyser-cone-2b5033", ctx);

    expect(replay.requested).toEqual([`${API}/geyser-cone-2b5033`]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({
      id: "polyfork:geyser-cone-2b5033",
      title: "Geyser Cone",
      url: "https://polyfork.dev/asset/geyser-cone-2b5033",
      thumbnailUrl: "https://polyfork.dev/files/geyser-cone-2b5033/renders/hero.png",
      license: LICENSE,
      price: { free: true },
      formats: ["glb", "fbx", "usdz", "obj"],
      polyCount: 524,
      downloadable: true,
      createdAt: "2026-10-06T02:45:53",
    });
    expect(details!.files).toStrictEqual([
      { url: "https://polyfork.dev/cdn/geyser-cone-2b5033.glb", filename: "geyser-cone-2b5033.glb", format: "glb", group: "glb" },
      { url: "https://polyfork.dev/cdn/geyser-cone-2b5033.mjs", filename: "geyser-cone-2b5033.mjs", format: "mjs", group: "program" },
      { url: "https://polyfork.dev/dl/geyser-cone-2b5033.fbx", filename: "geyser-cone-2b5033.fbx", format: "fbx", group: "fbx", requiresAuth: true },
      { url: "https://polyfork.dev/dl/geyser-cone-2b5033.usdz", filename: "geyser-cone-2b5033.usdz", format: "usdz", group: "usdz", requiresAuth: true },
      { url: "https://polyfork.dev/dl/geyser-cone-2b5033.obj", filename: "geyser-cone-2b5033.obj", format: "obj", group: "obj", requiresAuth: true },
    ]);
  });

  it("lists a paid asset's files as needing a plan, and not its reduced preview", async () => {
    const { ctx } = replayContext({ now: NOW });
    const details = await polyfork.getAsset("ginkgo-tree-baa895", ctx);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({ title: "Ginkgo Tree", price: { free: false }, downloadable: false, polyCount: 1080 });
    expect(details!.files.map((f) => [f.format, f.requiresAuth])).toEqual([
      ["fbx", true],
      ["usdz", true],
      ["obj", true],
    ]);
    expect(details!.files.some((f) => f.url.includes("preview"))).toBe(false);
  });

  it("answers null for an unknown asset (404) and for an id that is no id, without asking", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}/no-such-asset`, status: 404, body: '{"error":"not found"}' });
    expect(await polyfork.getAsset("no-such-asset", ctx)).toBeNull();
    expect(await polyfork.getAsset("a/b", ctx)).toBeNull();
    expect(replay.requested).toEqual([`${API}/no-such-asset`]);
  });

  it("rejects a malformed answer with a message naming the source, and lets HTTP failures propagate", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}/geyser-cone-2b5033`, body: '{"changed":true}' });
    await expect(polyfork.getAsset("geyser-cone-2b5033", ctx)).rejects.toThrow(/^polyfork: /);
    replay.add({ url: `${API}/ginkgo-tree-baa895`, status: 500, body: "oops" });
    const err = await polyfork.getAsset("ginkgo-tree-baa895", ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect(err).toMatchObject({ source: "polyfork", kind: "http", status: 500 });
  });
});

describe("polyfork: census", () => {
  it("reads the totals of two one-item searches (SYNTHETIC bodies: no recording of these URLs exists)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}?per_page=1`, body: synthetic(["x"], 412), note: "SYNTHETIC" });
    replay.add({ url: `${API}?per_page=1&free=1`, body: synthetic(["y"], 180), note: "SYNTHETIC" });
    const census = await polyfork.census(ctx);
    expect([...replay.requested].sort()).toEqual([`${API}?per_page=1`, `${API}?per_page=1&free=1`]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toStrictEqual({
      id: "polyfork",
      name: "Polyfork",
      homepage: "https://polyfork.dev",
      total: 412,
      free: 180,
      byType: { model: 412 },
      unit: "assets",
      method: "polyfork.dev API: `total` of an empty /api/assets search, and of the same search with free=1",
      countedAt: "2026-11-22T00:00:00.000Z",
    });
  });

  it("rejects an answer without a total", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}?per_page=1`, body: '{"assets":[]}', note: "SYNTHETIC" });
    replay.add({ url: `${API}?per_page=1&free=1`, body: '{"assets":[]}', note: "SYNTHETIC" });
    await expect(polyfork.census(ctx)).rejects.toThrow(/^polyfork: /);
  });
});

describe("polyfork: searchUrl", () => {
  it("carries the query", () => {
    expect(polyfork.searchUrl(query("low poly rock"))).toBe("https://polyfork.dev/?q=low%20poly%20rock");
    expect(polyfork.searchUrl(query(""))).toBe("https://polyfork.dev/");
  });
});
