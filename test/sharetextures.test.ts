import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import type { SourceQuery } from "../core/model/source.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { itemsUrl, sharetextures, tagOf } from "../sources/sharetextures.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { FIXTURES, replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/sharetextures/manifest.json. The census's untagged listing is a
// STAND-IN (the real brick-wall tag listing, totalCount 9): see the manifest note.

const NOW = new Date("2026-11-22T00:00:00Z");
const API = "https://api2.sharetextures.com/api/v0/for-frontend";
const BRICK_URL = `${API}/items?tag=brick-wall&sortBy=most_download&page=1&perPage=3`;
const DIR = join(FIXTURES, "sharetextures");

const query = (q: string, over: Partial<SourceQuery> = {}) => sourceQuery(q, { limit: 3, ...over });

describe("sharetextures: metadata", () => {
  it("is a live CC0 API source without downloads (its terms forbid automated ones)", () => {
    expect(sharetextures).toMatchObject({
      id: "sharetextures",
      name: "ShareTextures",
      mode: "live",
      access: "api",
      pricing: "free",
      supportsDownload: false,
      license: licenseById("CC0-1.0"),
    });
  });

  it("turns the query into a tag slug", () => {
    expect(tagOf("Brick Wall")).toBe("brick-wall");
    expect(tagOf("  wood  ")).toBe("wood");
    expect(itemsUrl("brick-wall", 2, 24)).toBe(`${API}/items?tag=brick-wall&sortBy=most_download&page=2&perPage=24`);
  });
});

describe("sharetextures: search", () => {
  it("asks the tag listing sorted by downloads and maps each item", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await sharetextures.search(query("Brick Wall"), ctx);
    expect(replay.requested).toEqual([BRICK_URL]);
    expect(result.total).toBe(9);
    expect(result.searchUrl).toBe("https://www.sharetextures.com/tag/brick-wall");
    expect(result.assets.map((a) => a.nativeId)).toEqual(["brick-wall-2", "brick-wall-5", "brick-wall-4"]);
    for (const asset of result.assets) Asset.parse(asset);
    expect(result.assets[0]).toStrictEqual({
      id: "sharetextures:brick-wall-2",
      provider: "sharetextures",
      nativeId: "brick-wall-2",
      title: "Brick Wall 2",
      type: "texture",
      tags: ["brick wall", "wall textures", "brick textures"],
      categories: ["Wall"],
      url: "https://www.sharetextures.com/textures/wall/brick-wall-2",
      thumbnailUrl: "https://images.sharetextures.com/u/brick_wall_2-1-min.webp",
      license: licenseById("CC0-1.0"),
      price: { free: true },
      downloadable: false,
      createdAt: "2018-09-02T00:00:00.000Z",
      downloads: 6643,
    });
  });

  it("answers nothing when the tag does not exist (the API then ignores it)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const url = `${API}/items?tag=no-such-tag&sortBy=most_download&page=1&perPage=3`;
    // Scripted: a listing whose facets do not hold the asked tag, as the API answers for an unknown tag.
    replay.add({ url, file: "items_brick-wall.json" }, DIR);
    const result = await sharetextures.search(query("no such tag"), ctx);
    expect(replay.requested).toEqual([url]);
    expect(result).toMatchObject({ assets: [], total: 0 });
  });

  it("pages by offset: an unaligned offset reads two pages and slices", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const page2 = `${API}/items?tag=brick-wall&sortBy=most_download&page=2&perPage=3`;
    // Scripted: page 2 answered with the recorded page-1 body (only the URLs and the slicing are checked).
    replay.add({ url: page2, file: "items_brick-wall.json" }, DIR);
    const result = await sharetextures.search(query("brick wall", { offset: 1 }), ctx);
    expect([...replay.requested].sort()).toEqual([BRICK_URL, page2]);
    expect(result.assets.map((a) => a.nativeId)).toEqual(["brick-wall-5", "brick-wall-4", "brick-wall-2"]);
  });

  it("keeps page 1's results when the next page of the window fails (page 2 is not recorded)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const page2 = `${API}/items?tag=brick-wall&sortBy=most_download&page=2&perPage=3`;
    const result = await sharetextures.search(query("brick wall", { offset: 1 }), ctx);
    expect([...replay.requested].sort()).toEqual([BRICK_URL, page2]);
    expect(result.assets.map((a) => a.nativeId)).toEqual(["brick-wall-5", "brick-wall-4"]);
    // A failing first page still fails the search.
    const other = replayContext({ now: NOW });
    other.replay.add({ url: BRICK_URL, status: 500, body: "oops" });
    await expect(sharetextures.search(query("brick wall", { offset: 1 }), other.ctx)).rejects.toThrow(BRICK_URL);
  });

  it("asks perPage=24 with the default limit (manifest STAND-IN: the recorded page of 3)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await sharetextures.search(query("brick wall", { limit: 24 }), ctx);
    expect(replay.requested).toEqual([`${API}/items?tag=brick-wall&sortBy=most_download&page=1&perPage=24`]);
    expect(result.assets.map((a) => a.nativeId)).toEqual(["brick-wall-2", "brick-wall-5", "brick-wall-4"]);
    expect(result.total).toBe(9);
  });

  it("asks nothing for types ShareTextures does not have", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await sharetextures.search(query("brick wall", { types: ["hdri", "audio"] }), ctx);
    expect(replay.requested).toEqual([]);
    expect(result.assets).toEqual([]);
  });

  it("rejects a changed listing, naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: BRICK_URL, body: "<html>changed</html>" });
    await expect(sharetextures.search(query("brick wall"), ctx)).rejects.toThrow(/sharetextures: /);
    const other = replayContext({ now: NOW });
    other.replay.add({ url: BRICK_URL, body: JSON.stringify({ success: true, data: { list: [] } }) });
    await expect(sharetextures.search(query("brick wall"), other.ctx)).rejects.toThrow(/sharetextures: listing JSON has no data.items array/);
  });
});

describe("sharetextures: getAsset", () => {
  it("maps the item details and lists no files", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await sharetextures.getAsset("brick-wall-2", ctx);
    expect(replay.requested).toEqual([`${API}/item/brick-wall-2`]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toStrictEqual({
      id: "sharetextures:brick-wall-2",
      provider: "sharetextures",
      nativeId: "brick-wall-2",
      title: "Brick Wall 2",
      description:
        "Free brick wall texture in sharetextures.com. High quality textures with diffuse reflection bump normal displacement opacitiy and ambient occlusion map.",
      type: "texture",
      tags: ["wall textures", "brick wall", "brick textures"],
      categories: ["Wall"],
      url: "https://www.sharetextures.com/textures/wall/brick-wall-2",
      thumbnailUrl: "https://images.sharetextures.com/u/brick_wall_2-1-min.webp",
      author: "M.Tolga Arslan",
      license: licenseById("CC0-1.0"),
      price: { free: true },
      formats: ["zip"],
      resolutions: ["1k", "2k", "4k"],
      downloadable: false,
      createdAt: "2018-09-02T00:00:00.000Z",
      downloads: 6643,
      files: [],
    });
  });

  it("answers null for a 404 or an empty item", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}/item/gone`, status: 404, body: "{}" });
    replay.add({ url: `${API}/item/nothing`, body: JSON.stringify({ success: false, data: null, error: ["not found"] }) });
    expect(await sharetextures.getAsset("gone", ctx)).toBeNull();
    expect(await sharetextures.getAsset("nothing", ctx)).toBeNull();
  });

  it("rejects a changed item page, naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}/item/brick-wall-2`, body: "<html>changed</html>" });
    await expect(sharetextures.getAsset("brick-wall-2", ctx)).rejects.toThrow(/sharetextures: /);
  });
});

describe("sharetextures: census", () => {
  it("reads the listing's totalCount and its most downloaded items", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const census = await sharetextures.census(ctx);
    expect(replay.requested).toEqual([`${API}/items?sortBy=most_download&page=1&perPage=3`]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toMatchObject({
      id: "sharetextures",
      total: 9, // the stand-in's totalCount
      free: 9,
      byType: {},
      byLicense: { "CC0-1.0": 9 },
      countedAt: NOW.toISOString(),
    });
    expect(census.highlights).toEqual([
      { label: "Most downloaded", title: "Brick Wall 2", url: "https://www.sharetextures.com/textures/wall/brick-wall-2", value: 6643 },
      { label: "Most downloaded", title: "Brick Wall 5", url: "https://www.sharetextures.com/textures/wall/brick-wall-5", value: 2291 },
      { label: "Most downloaded", title: "Brick Wall 4", url: "https://www.sharetextures.com/textures/wall/brick-wall-4", value: 2267 },
    ]);
  });
});

describe("sharetextures: searchUrl", () => {
  it("opens the site's tag page", () => {
    expect(sharetextures.searchUrl(query("Brick Wall"))).toBe("https://www.sharetextures.com/tag/brick-wall");
    expect(sharetextures.searchUrl(query(""))).toBe("https://www.sharetextures.com/textures");
  });
});

describe("sharetextures: filters and sorts", () => {
  it("asks sortBy=most_recent on sort=newest, most_download otherwise", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const url = `${API}/items?tag=brick-wall&sortBy=most_recent&page=1&perPage=3`;
    // Stand-in: the recorded body of the brick-wall listing sorted by downloads, served for the newest-first URL.
    replay.add({ method: "GET", url, file: "items_brick-wall.json", status: 200, headers: { "content-type": "application/json" } }, DIR);
    await sharetextures.search(query("brick wall", { sort: "newest" }), ctx);
    expect(replay.requested).toEqual([url]);
    for (const sort of ["popular", "name"] as const) {
      const other = replayContext({ now: NOW });
      await sharetextures.search(query("brick wall", { sort, filters: { license: ["cc0"], category: ["wall"] } }), other.ctx);
      expect(other.replay.requested).toEqual([BRICK_URL]);
    }
  });

  it("fills downloads from downloadCount", async () => {
    const { ctx } = replayContext({ now: NOW });
    const { assets } = await sharetextures.search(query("brick wall"), ctx);
    expect(assets.map((a) => a.downloads)).toEqual([6643, 2291, 2267]);
  });

  it("declares exactly the keys its listings carry", async () => {
    const { ctx } = replayContext({ now: NOW });
    const { assets } = await sharetextures.search(query("brick wall"), ctx);
    const listed = sharetextures.filtering!.listed;
    expectListedExactly(assets, listed);
    expect(sharetextures.filtering!.upstream).toEqual(["newest", "popular"]);
  });
});
