import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import type { SourceQuery } from "../core/model/source.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { postsUrl, threeDTextures } from "../sources/3dtextures.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { FIXTURES, replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/3dtextures/manifest.json (bodies only: the X-WP-Total header was
// not recorded). The census's newest-posts page is a STAND-IN (the real 'wood' search, 4 posts).
// Tests that need the header add it to a scripted entry and say so.

const NOW = new Date("2026-11-22T00:00:00Z");
const API = "https://3dtextures.me/wp-json/wp/v2/posts";
const FIELDS = "_fields=id,date,slug,link,title,excerpt,categories,jetpack_featured_media_url,_links,_embedded";
const WOOD_URL = `${API}?search=wood&_embed=wp:term&per_page=4&page=1&${FIELDS}`;
const POST_URL = `${API}?slug=wood-tiles-005&_embed=wp:term&${FIELDS},content`;
const CENSUS_URL = `${API}?_embed=wp:term&per_page=100&page=1&${FIELDS}`;
const DIR = join(FIXTURES, "3dtextures");

const query = (q: string, over: Partial<SourceQuery> = {}) => sourceQuery(q, { limit: 4, ...over });

describe("3dtextures: metadata", () => {
  it("is a live CC0 WordPress API source whose files are Google Drive links", () => {
    expect(threeDTextures).toMatchObject({
      id: "3dtextures",
      name: "3DTextures",
      homepage: "https://3dtextures.me",
      mode: "live",
      access: "api",
      pricing: "free",
      supportsDownload: false,
      license: licenseById("CC0-1.0"),
      assetTypes: ["texture"],
    });
    expect(postsUrl("", 2, 10)).toBe(`${API}?_embed=wp:term&per_page=10&page=2&${FIELDS}`);
  });
});

describe("3dtextures: search", () => {
  it("asks the posts search with embedded terms and maps each post", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await threeDTextures.search(query("wood"), ctx);
    expect(replay.requested).toEqual([WOOD_URL]);
    expect(result.total).toBeUndefined(); // no X-WP-Total in the recording
    expect(result.searchUrl).toBe("https://3dtextures.me/?s=wood");
    expect(result.assets.map((a) => a.nativeId)).toEqual([
      "wood-tiles-005",
      "wood-wicker-013-free-seamless-pbr-texture",
      "concrete-wall-formwork-016-free-seamless-pbr-texture",
      "asphalt-damaged-001",
    ]);
    for (const asset of result.assets) Asset.parse(asset);
    expect(result.assets[0]).toStrictEqual({
      id: "3dtextures:wood-tiles-005",
      provider: "3dtextures",
      nativeId: "wood-tiles-005",
      title: "Wood Tiles 005",
      type: "texture",
      tags: ["cc0", "free", "geometric", "house", "Pattern", "pbr", "procedural", "seamless", "texture", "Tiles", "Wall", "Wood"],
      categories: [],
      url: "https://3dtextures.me/2026/08/24/wood-tiles-005/",
      thumbnailUrl: "https://i0.wp.com/3dtextures.me/wp-content/uploads/2026/08/Material_2003.png?fit=600%2C800&ssl=1",
      author: "Gendo",
      license: licenseById("CC0-1.0"),
      price: { free: true },
      downloadable: false,
      createdAt: "2026-08-24T14:16:47",
    });
    expect(result.assets[3]).toMatchObject({ title: "Asphalt Damaged 001", categories: ["Patreon Exclusive"], price: { free: false } });
  });

  it("reads X-WP-Total when the server sends it", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // Scripted: the recorded body with a header the recording does not have.
    replay.add({ url: WOOD_URL, file: "wp_posts_search_wood.json", headers: { "x-wp-total": "57" } }, DIR);
    expect((await threeDTextures.search(query("wood"), ctx)).total).toBe(57);
  });

  it("drops Patreon-exclusive posts when only free assets are asked", async () => {
    const { ctx } = replayContext({ now: NOW });
    const result = await threeDTextures.search(query("wood", { free: true }), ctx);
    expect(result.assets.map((a) => a.nativeId)).not.toContain("asphalt-damaged-001");
    expect(result.assets).toHaveLength(3);
    expect(result.total).toBeUndefined();
  });

  it("maps the offset to WordPress pages; a page past the end (HTTP 400) is empty", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const page2 = `${API}?search=wood&_embed=wp:term&per_page=4&page=2&${FIELDS}`;
    replay.add({ url: page2, status: 400, body: JSON.stringify({ code: "rest_post_invalid_page_number" }) });
    const result = await threeDTextures.search(query("wood", { offset: 4 }), ctx);
    expect(replay.requested).toEqual([page2]);
    expect(result.assets).toEqual([]);
  });

  it("keeps page 1's posts when the next page of the window fails (page 2 is not recorded)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const page2 = `${API}?search=wood&_embed=wp:term&per_page=4&page=2&${FIELDS}`;
    const result = await threeDTextures.search(query("wood", { offset: 1 }), ctx);
    expect([...replay.requested].sort()).toEqual([WOOD_URL, page2].sort());
    expect(result.assets.map((a) => a.nativeId)).toEqual([
      "wood-wicker-013-free-seamless-pbr-texture",
      "concrete-wall-formwork-016-free-seamless-pbr-texture",
      "asphalt-damaged-001",
    ]);
    // A failing first page still fails the search.
    const other = replayContext({ now: NOW });
    other.replay.add({ url: WOOD_URL, status: 500, body: "oops" });
    await expect(threeDTextures.search(query("wood", { offset: 1 }), other.ctx)).rejects.toThrow();
  });

  it("asks per_page=24 with the default limit (manifest STAND-IN: the recorded page of 4)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await threeDTextures.search(query("wood", { limit: 24 }), ctx);
    expect(replay.requested).toEqual([`${API}?search=wood&_embed=wp:term&per_page=24&page=1&${FIELDS}`]);
    expect(result.assets).toHaveLength(4);
  });

  it("asks nothing for types 3DTextures does not have", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    expect((await threeDTextures.search(query("wood", { types: ["model"] }), ctx)).assets).toEqual([]);
    expect(replay.requested).toEqual([]);
  });

  it("rejects a changed answer, naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: WOOD_URL, body: "<html>changed</html>" });
    await expect(threeDTextures.search(query("wood"), ctx)).rejects.toThrow(/3dtextures: /);
    const other = replayContext({ now: NOW });
    other.replay.add({ url: WOOD_URL, body: JSON.stringify({ posts: [] }) });
    await expect(threeDTextures.search(query("wood"), other.ctx)).rejects.toThrow(/3dtextures: posts JSON is not an array/);
  });
});

describe("3dtextures: getAsset", () => {
  it("lists the post's Google Drive link as a file that needs the browser", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await threeDTextures.getAsset("wood-tiles-005", ctx);
    expect(replay.requested).toEqual([POST_URL]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({ title: "Wood Tiles 005", downloadable: false, resolutions: ["1k"] });
    // The Patreon "become a patron" links are not files.
    expect(details!.files).toStrictEqual([
      {
        url: "https://drive.google.com/drive/folders/1XEyuYBP6GbmJQc8ZQTLTwVNe_aEtHAk3?usp=sharing",
        filename: "wood-tiles-005.zip",
        format: "zip",
        resolution: "1k",
        group: "archive",
        requiresAuth: true,
      },
    ]);
  });

  it("answers null for an unknown slug (empty array or 404)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}?slug=no-such-post&_embed=wp:term&${FIELDS},content`, body: "[]" });
    replay.add({ url: `${API}?slug=gone&_embed=wp:term&${FIELDS},content`, status: 404, body: "{}" });
    expect(await threeDTextures.getAsset("no-such-post", ctx)).toBeNull();
    expect(await threeDTextures.getAsset("gone", ctx)).toBeNull();
  });

  it("rejects a post without content, naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: POST_URL, body: JSON.stringify([{ id: 1, slug: "wood-tiles-005", link: "https://3dtextures.me/x/", title: { rendered: "x" } }]) });
    await expect(threeDTextures.getAsset("wood-tiles-005", ctx)).rejects.toThrow(/3dtextures: post has no content/);
  });
});

describe("3dtextures: census", () => {
  it("counts the newest page when there is no X-WP-Total (stand-in: 4 posts, all seen)", async () => {
    const { ctx, replay } = replayContext({ now: new Date("2026-09-10T00:00:00Z") });
    const census = await threeDTextures.census(ctx);
    expect(replay.requested).toEqual([CENSUS_URL]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toMatchObject({
      total: 4,
      free: 3,
      byType: { texture: 4 },
      byLicense: { "CC0-1.0": 4 },
      categories: { "Patreon Exclusive": 1 },
      addedLast30Days: 1, // Wood Tiles 005, 2026-08-24
      highlights: [{ label: "Newest texture", title: "Wood Tiles 005", url: "https://3dtextures.me/2026/08/24/wood-tiles-005/" }],
      countedAt: "2026-09-10T00:00:00.000Z",
    });
    expect(census.atLeast).toBeUndefined();
  });

  it("takes X-WP-Total as the exact total, without free or category counts it cannot see", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // Scripted: the stand-in body with a header the recording does not have.
    replay.add({ url: CENSUS_URL, file: "wp_posts_search_wood.json", headers: { "x-wp-total": "1234" } }, DIR);
    const census = SourceCensus.parse(await threeDTextures.census(ctx));
    expect(census.total).toBe(1234);
    expect(census.atLeast).toBeUndefined();
    expect(census.free).toBeUndefined();
    expect(census.categories).toBeUndefined();
    expect(census.addedLast30Days).toBe(0);
  });
});

describe("3dtextures: searchUrl", () => {
  it("opens the site's WordPress search", () => {
    expect(threeDTextures.searchUrl(query("wood tiles"))).toBe("https://3dtextures.me/?s=wood+tiles");
    expect(threeDTextures.searchUrl(query(""))).toBe("https://3dtextures.me/");
  });
});

describe("3dtextures: filters and sorts", () => {
  it("asks orderby=date&order=desc on sort=newest only", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const url = `${API}?search=wood&orderby=date&order=desc&_embed=wp:term&per_page=4&page=1&${FIELDS}`;
    // Stand-in: the recorded body of the unsorted wood search served for the newest-first URL.
    replay.add({ method: "GET", url, file: "wp_posts_search_wood.json", status: 200, headers: { "content-type": "application/json" } }, DIR);
    await threeDTextures.search(query("wood", { sort: "newest", filters: { license: ["cc0"] } }), ctx);
    expect(replay.requested).toEqual([url]);
    const other = replayContext({ now: NOW });
    await threeDTextures.search(query("wood", { sort: "popular" }), other.ctx);
    expect(other.replay.requested).toEqual([WOOD_URL]);
  });

  it("declares exactly the keys its listings carry", async () => {
    const { ctx } = replayContext({ now: NOW });
    const result = await threeDTextures.search(query("wood"), ctx);
    const assets = result.assets;
    const listed = threeDTextures.filtering!.listed;
    expectListedExactly(assets, listed);
    expect(threeDTextures.filtering!.upstream).toEqual(["newest"]);
  });
});
