import { describe, expect, it } from "vitest";
import type { SourceQuery } from "../core/model/source.ts";
import { SourceError } from "../core/model/source-error.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { listingUrl, threeDAssets } from "../sources/3dassets.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/3dassets/manifest.json (real 3dassets.dev API answers copied
// from Valverde-101/3d-asset-server). Requests with no recording fail as network errors that name
// the URL, which still lets a test assert the exact URL asked. Bodies written inline are SYNTHETIC.

const NOW = new Date("2026-11-22T00:00:00Z");
const API = "https://3dassets.dev/api/v1";
const BELLROOT = "bellroot-fen-floodward-marches-ceremonial-bellroot-tre-aec588ae";
const CC0 = {
  name: "CC0 1.0 Universal (public domain dedication)",
  url: "https://creativecommons.org/publicdomain/zero/1.0/",
  commercialUse: true,
  attributionRequired: false,
  spdx: "CC0-1.0",
};

const query = (q: string, over: Partial<SourceQuery> = {}) => sourceQuery(q, { limit: 3, ...over });

/** A SYNTHETIC listing: the recorded envelope with minimal items. */
const synthetic = (slugs: string[], total: number) =>
  JSON.stringify({ data: slugs.map((slug) => ({ slug, title: slug, cdnUrl: `https://cdn.3dassets.dev/${slug}.glb` })), page: 1, total, limit: slugs.length });

describe("3dassets: metadata", () => {
  it("is a live, free API source of models with direct downloads", () => {
    expect(threeDAssets).toMatchObject({
      id: "3dassets",
      name: "3DAssets.dev",
      homepage: "https://3dassets.dev",
      mode: "live",
      access: "api",
      pricing: "free",
      supportsDownload: true,
      unit: "assets",
      assetTypes: ["model"],
    });
    expect(threeDAssets.key).toBeUndefined();
    expect(threeDAssets).not.toHaveProperty("crawl");
  });
});

describe("3dassets: search", () => {
  it("asks the recorded URL and maps every item", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await threeDAssets.search(query("tree"), ctx);

    expect(replay.requested).toEqual([`${API}/assets?q=tree&page=1&limit=3`]);
    expect(result.total).toBe(545);
    expect(result.searchUrl).toBe("https://3dassets.dev/assets?q=tree");
    expect(result.assets.map((a) => `${a.nativeId} ${a.polyCount} ${a.downloadable}`)).toEqual([
      `${BELLROOT} 13736 true`,
      "japanese-school-and-city-street-cherry-tree-blossom-618a9f6d 2294 true",
      "desert-mosque-and-madrasa-courtyard-courtyard-tree-in--7057a18b 968 true",
    ]);
    for (const asset of result.assets) expect(Asset.parse(asset)).toStrictEqual(asset);
    expect(result.assets[1]).toStrictEqual({
      id: "3dassets:japanese-school-and-city-street-cherry-tree-blossom-618a9f6d",
      provider: "3dassets",
      nativeId: "japanese-school-and-city-street-cherry-tree-blossom-618a9f6d",
      title: "Cherry Tree in Blossom (Japanese School and City Street)",
      description:
        "Flowering cherry tree 4.6 m tall with a forked trunk, four main limbs and five blossom masses over a circular concrete tree pit, for a school yard or a street kerb.",
      type: "model",
      tags: ["Modern", "Realistic", "Exterior", "ai-generated"],
      categories: ["Nature & Landscape"],
      url: "https://3dassets.dev/assets/japanese-school-and-city-street-cherry-tree-blossom-618a9f6d",
      thumbnailUrl: "https://cdn.3dassets.dev/assets/30082/v1/thumb.webp",
      author: "3D Assets",
      license: CC0,
      price: { free: true },
      formats: ["glb"],
      polyCount: 2294,
      animated: false,
      downloadable: true,
      createdAt: "2026-09-08T05:12:24.927Z",
      downloads: 14,
    });
  });

  it("asks limit=24 with the default limit (manifest STAND-IN: the recorded page of 3)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await threeDAssets.search(query("tree", { limit: 24 }), ctx);
    expect(replay.requested).toEqual([`${API}/assets?q=tree&page=1&limit=24`]);
    expect(result.assets).toHaveLength(3);
    expect(result.total).toBe(545);
  });

  it("maps offset to pages: a whole page is one request carrying its page number", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    await expect(threeDAssets.search(query("tree", { offset: 3 }), ctx)).rejects.toThrow(/no recorded response/);
    expect(replay.requested).toEqual([`${API}/assets?q=tree&page=2&limit=3`]);
  });

  it("keeps page 1's results when the next page of an unaligned window fails (page 2 is not recorded)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await threeDAssets.search(query("tree", { offset: 1 }), ctx);
    expect(replay.requested).toEqual([`${API}/assets?q=tree&page=1&limit=3`, `${API}/assets?q=tree&page=2&limit=3`]);
    expect(result.assets.map((a) => a.nativeId)).toEqual([
      "japanese-school-and-city-street-cherry-tree-blossom-618a9f6d",
      "desert-mosque-and-madrasa-courtyard-courtyard-tree-in--7057a18b",
    ]);
    expect(result.total).toBe(545);
  });

  it("slices a two-page window from the offset (SYNTHETIC bodies)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}/assets?q=rock&page=1&limit=3`, body: synthetic(["a", "b", "c"], 7), note: "SYNTHETIC" });
    replay.add({ url: `${API}/assets?q=rock&page=2&limit=3`, body: synthetic(["d", "e", "f"], 7), note: "SYNTHETIC" });
    const result = await threeDAssets.search(query("rock", { offset: 2 }), ctx);
    expect(replay.requested).toEqual([`${API}/assets?q=rock&page=1&limit=3`, `${API}/assets?q=rock&page=2&limit=3`]);
    expect(result.assets.map((a) => a.nativeId)).toEqual(["c", "d", "e"]);
    expect(result.total).toBe(7);
  });

  it("asks nothing when the types exclude models; free and downloadable change nothing asked", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    expect(await threeDAssets.search(query("tree", { types: ["hdri", "texture"] }), ctx)).toEqual({ assets: [], total: 0 });
    expect(replay.requested).toEqual([]);
    const result = await threeDAssets.search(query("tree", { types: ["model"], free: true, downloadable: true }), ctx);
    expect(replay.requested).toEqual([`${API}/assets?q=tree&page=1&limit=3`]);
    expect(result.assets).toHaveLength(3);
  });

  it("builds listing URLs with an encoded query, and none without one", () => {
    expect(listingUrl({ q: " old tree ", page: 2, limit: 24 })).toBe(`${API}/assets?q=old%20tree&page=2&limit=24`);
    expect(listingUrl({ limit: 1 })).toBe(`${API}/assets?limit=1`);
    expect(listingUrl({ category: "nature", limit: 1 })).toBe(`${API}/assets?category=nature&limit=1`);
  });

  it("rejects a changed answer with a message naming the source", async () => {
    const html = replayContext({ now: NOW });
    html.replay.add({ url: `${API}/assets?q=tree&page=1&limit=3`, body: "<html>changed</html>" });
    await expect(threeDAssets.search(query("tree"), html.ctx)).rejects.toThrow(/^3dassets: /);
    const json = replayContext({ now: NOW });
    json.replay.add({ url: `${API}/assets?q=tree&page=1&limit=3`, body: '{"items":[]}' });
    await expect(threeDAssets.search(query("tree"), json.ctx)).rejects.toThrow(/^3dassets: .*no data array/);
    const item = replayContext({ now: NOW });
    item.replay.add({ url: `${API}/assets?q=tree&page=1&limit=3`, body: '{"data":[{"title":"no slug"}],"total":1}' });
    await expect(threeDAssets.search(query("tree"), item.ctx)).rejects.toThrow(/^3dassets: .*no slug or title/);
  });
});

describe("3dassets: getAsset", () => {
  it("lists the asset's GLB on the CDN as a direct file", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await threeDAssets.getAsset(BELLROOT, ctx);

    expect(replay.requested).toEqual([`${API}/assets/${BELLROOT}`]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({
      id: `3dassets:${BELLROOT}`,
      title: "Ceremonial Bellroot Tree (Bellroot Fen Floodward Marches)",
      description:
        "Original living bellroot tree with three hollow bell-shaped root chambers, continuously buttressed bole and tapering ceremonial crown branches. No generic tree design credit. Original Bellroot Fen crafted construction. Metres, +Y up, ground origin; no collision or gameplay logic.",
      url: `https://3dassets.dev/assets/${BELLROOT}`,
      thumbnailUrl: "https://cdn.3dassets.dev/assets/32932/v1/thumb.webp",
      tags: ["Fantasy", "Stylized", "Kit / Set", "ai-generated"],
      license: CC0,
      price: { free: true },
      formats: ["glb"],
      polyCount: 13736,
      downloadable: true,
      createdAt: "2026-09-08T14:52:55.103Z",
    });
    expect(details!.files).toStrictEqual([
      {
        url: "https://cdn.3dassets.dev/assets/32932/v1/model.glb",
        filename: `${BELLROOT}.glb`,
        format: "glb",
        sizeBytes: 294112,
        group: "gltf",
      },
    ]);
  });

  it("lists only the page, as needing the site, when an asset has no CDN file (SYNTHETIC body)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}/assets/no-file`, body: JSON.stringify({ data: { slug: "no-file", title: "No file" } }), note: "SYNTHETIC" });
    const details = await threeDAssets.getAsset("no-file", ctx);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({ downloadable: false, url: "https://3dassets.dev/assets/no-file" });
    expect(details!.files).toStrictEqual([
      { url: "https://3dassets.dev/assets/no-file", filename: "no-file", format: "page", group: "gltf", requiresAuth: true },
    ]);
  });

  it("answers null for an unknown asset (404) and for an id that is no slug, without asking", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}/assets/no-such-asset`, status: 404, body: '{"error":"Not found"}' });
    expect(await threeDAssets.getAsset("no-such-asset", ctx)).toBeNull();
    expect(await threeDAssets.getAsset("a/b", ctx)).toBeNull();
    expect(replay.requested).toEqual([`${API}/assets/no-such-asset`]);
  });

  it("rejects a changed answer with a message naming the source, and lets HTTP failures propagate", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}/assets/${BELLROOT}`, body: "<html>changed</html>" });
    await expect(threeDAssets.getAsset(BELLROOT, ctx)).rejects.toThrow(/^3dassets: /);
    replay.add({ url: `${API}/assets/other`, body: '{"asset":{}}' });
    await expect(threeDAssets.getAsset("other", ctx)).rejects.toThrow(/^3dassets: .*no data object/);
    replay.add({ url: `${API}/assets/broken`, status: 500, body: "oops" });
    const err = await threeDAssets.getAsset("broken", ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect(err).toMatchObject({ source: "3dassets", kind: "http", status: 500 });
  });
});

describe("3dassets: census", () => {
  const CATEGORY_SLUGS = [
    "buildings",
    "nature",
    "vehicles",
    "characters",
    "animals",
    "props",
    "food",
    "weapons-tools",
    "roads-infrastructure",
    "icons",
    "environments",
    "effects-primitives",
    "other",
  ];

  it("counts the total and each category (only 'nature' is recorded: the others are left out)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const census = await threeDAssets.census(ctx);
    expect([...replay.requested].sort()).toEqual(
      [`${API}/assets?limit=1`, `${API}/categories`, ...CATEGORY_SLUGS.map((s) => `${API}/assets?category=${s}&limit=1`)].sort(),
    );
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toStrictEqual({
      id: "3dassets",
      name: "3DAssets.dev",
      homepage: "https://3dassets.dev",
      total: 22849,
      free: 22849,
      byType: { model: 22849 },
      categories: { "Nature & Landscape": 1520 },
      unit: "assets",
      method:
        "3DAssets.dev API: `total` of /api/v1/assets?limit=1 (every asset is a free model), and per category the `total` of /api/v1/assets?category=<slug>&limit=1 for each entry of /api/v1/categories (categories whose count did not answer are left out)",
      countedAt: "2026-11-22T00:00:00.000Z",
    });
  });

  it("takes every category that answers (SYNTHETIC bodies for two more categories)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}/assets?category=props&limit=1`, body: synthetic(["p"], 4000), note: "SYNTHETIC" });
    replay.add({ url: `${API}/assets?category=food&limit=1`, body: synthetic([], 0), note: "SYNTHETIC" });
    const census = await threeDAssets.census(ctx);
    expect(census.categories).toStrictEqual({ "Nature & Landscape": 1520, "Props & Furniture": 4000 });
  });

  it("rejects a total or a category list that changed", async () => {
    const one = replayContext({ now: NOW });
    one.replay.add({ url: `${API}/assets?limit=1`, body: '{"data":[]}' });
    await expect(threeDAssets.census(one.ctx)).rejects.toThrow(/^3dassets: .*no total/);
    const two = replayContext({ now: NOW });
    two.replay.add({ url: `${API}/categories`, body: '{"categories":[]}' });
    await expect(threeDAssets.census(two.ctx)).rejects.toThrow(/^3dassets: .*categories/);
  });
});

describe("3dassets: searchUrl", () => {
  it("carries the query", () => {
    expect(threeDAssets.searchUrl(query("low poly tree"))).toBe("https://3dassets.dev/assets?q=low%20poly%20tree");
    expect(threeDAssets.searchUrl(query(" "))).toBe("https://3dassets.dev/assets");
  });
});

describe("3dassets: filters and sorts", () => {
  it("fills downloads from the listing's download counts", async () => {
    const { ctx } = replayContext({ now: NOW });
    const { assets } = await threeDAssets.search(query("tree"), ctx);
    expect(assets.map((a) => a.downloads)).toEqual([20, 14, 11]);
  });

  it("asks the same listing whatever the filters and sort (none has a documented upstream form)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    await threeDAssets.search(query("tree", { sort: "newest", filters: { license: ["cc0"], author: "3d assets", category: ["nature & landscape"] } }), ctx);
    expect(replay.requested).toEqual([`${API}/assets?q=tree&page=1&limit=3`]);
  });

  it("declares exactly the keys its listings carry", async () => {
    const { ctx } = replayContext({ now: NOW });
    const result = await threeDAssets.search(query("tree"), ctx);
    const assets = result.assets;
    const listed = threeDAssets.filtering!.listed;
    expectListedExactly(assets, listed);
    expect(threeDAssets.filtering!.upstream).toEqual([]);
  });
});
