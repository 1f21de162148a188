import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SourceQuery } from "../core/model/source.ts";
import { SourceError } from "../core/model/source-error.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { searchApiUrl, threeDTexel } from "../sources/3dtexel.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { FIXTURES, replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/3dtexel/manifest.json (real 3dtexel.com API answers copied from
// Valverde-101/3d-asset-server). Requests with no recording fail as network errors that name the
// URL, which still lets a test assert the exact URL asked. Bodies written inline are SYNTHETIC.

const NOW = new Date("2026-11-22T00:00:00Z");
const PUB = "https://3dtexel.com/wp-json/3dtexel/v1/public";
const PRODUCT = "https://3dtexel.com/wp-json/wp/v2/product";
const BRICK = `${PUB}/search?q=brick&type=pbr&page=1&per_page=50`;
const FREE = `${PUB}/search?q=&free=1&page=1&per_page=50`;
const MOSSY = `${PUB}/search?q=Mossy%20Rock%20%E2%80%93%203D%20Asset&page=1&per_page=50`;
const CC0 = {
  name: "CC0 1.0 Universal (public domain dedication)",
  url: "https://creativecommons.org/publicdomain/zero/1.0/",
  commercialUse: true,
  attributionRequired: false,
  spdx: "CC0-1.0",
};

const query = sourceQuery;

const recorded = (file: string) => JSON.parse(readFileSync(join(FIXTURES, "3dtexel", file), "utf8")) as { items: { id: number; url: string }[] };

describe("3dtexel: metadata", () => {
  it("is a live, freemium API source whose files need an account", () => {
    expect(threeDTexel).toMatchObject({
      id: "3dtexel",
      name: "3DTexel",
      homepage: "https://3dtexel.com",
      mode: "live",
      access: "api",
      pricing: "freemium",
      supportsDownload: false,
      unit: "assets",
      assetTypes: ["material", "texture", "hdri", "model", "other"],
    });
    expect(threeDTexel.license).toBeUndefined();
    expect(threeDTexel.key).toBeUndefined();
    expect(threeDTexel).not.toHaveProperty("crawl");
  });
});

describe("3dtexel: search", () => {
  it("asks one library with the API's type filter when the types select only it (the recorded PBR search)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await threeDTexel.search(query("brick", { types: ["material"], free: true, limit: 3 }), ctx);

    expect(replay.requested).toEqual([BRICK]);
    expect(result.total).toBe(84);
    expect(result.searchUrl).toBe("https://3dtexel.com/?s=brick&post_type=product");
    expect(result.assets.map((a) => a.nativeId)).toEqual(["brick-wall-pbr-material-7", "brick-wall-pbr-material-6", "brick-wall-pbr-material-5"]);
    for (const asset of result.assets) expect(Asset.parse(asset)).toStrictEqual(asset);
    expect(result.assets[0]).toStrictEqual({
      id: "3dtexel:brick-wall-pbr-material-7",
      provider: "3dtexel",
      nativeId: "brick-wall-pbr-material-7",
      title: "Light Beige Brick Wall \u2013 PBR Material",
      type: "material",
      tags: [],
      url: "https://3dtexel.com/product/brick-wall-pbr-material-7/",
      thumbnailUrl: "https://3dtexel.com/wp-content/uploads/2025/11/Untitled_Sphere-Camera-82-768x768.webp",
      license: CC0,
      price: { free: true },
      resolutions: ["1k", "2k", "4k"],
      downloadable: false,
    });
  });

  it("answers the default search (limit 24) of the recorded free query, sliced from one page of 50", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await threeDTexel.search(query("", { free: true }), ctx);

    expect(replay.requested).toEqual([FREE]);
    expect(result.total).toBe(1888);
    expect(result.assets).toHaveLength(24);
    // The first 24 of the recorded 50, in order.
    expect(result.assets.map((a) => a.url)).toEqual(
      recorded("search_free.json")
        .items.slice(0, 24)
        .map((i) => i.url),
    );
    for (const asset of result.assets) expect(Asset.parse(asset)).toStrictEqual(asset);
    // Road signs under the site's own licence at 0 credits: free, an unknown licence without flags.
    expect(result.assets[0]).toStrictEqual({
      id: "3dtexel:french-road-sign-ab5-3d-asset",
      provider: "3dtexel",
      nativeId: "french-road-sign-ab5-3d-asset",
      title: "French Stop Ahead Road Sign \u2013 3D Model",
      type: "model",
      tags: [],
      url: "https://3dtexel.com/product/french-road-sign-ab5-3d-asset/",
      thumbnailUrl: "https://3dtexel.com/wp-content/uploads/2026/06/3d-model-30301-rendu-f-768x768.webp",
      license: { name: "3DTexel License" },
      price: { free: true },
      downloadable: false,
    });
  });

  it("keeps page 1's results when the window's next page fails (page 2 is not recorded)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await threeDTexel.search(query("", { free: true, offset: 40 }), ctx);
    expect(replay.requested).toEqual([FREE, `${PUB}/search?q=&free=1&page=2&per_page=50`]);
    expect(result.assets).toHaveLength(10);
    expect(result.assets[0]!.nativeId).toBe("french-road-sign-ce7-3d-asset");
    expect(result.total).toBe(1888);
  });

  it("maps an offset past the first page to the API's page, and a failing first page fails the search", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    await expect(threeDTexel.search(query("", { free: true, offset: 50, limit: 10 }), ctx)).rejects.toThrow(/no recorded response/);
    expect(replay.requested).toEqual([`${PUB}/search?q=&free=1&page=2&per_page=50`]);
  });

  it("filters here when the types select several libraries (free models: handmade and road signs)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await threeDTexel.search(query("", { types: ["model"], free: true }), ctx);
    expect(replay.requested).toEqual([FREE]);
    expect(result.assets).toHaveLength(24);
    expect(result.assets.every((a) => a.type === "model")).toBe(true);
    // The API's total counts every free library, not only models: not passed on.
    expect(result.total).toBeUndefined();

    // HDRIs, free or not: two libraries (handmade and AI), so no type filter upstream.
    const hdri = replayContext({ now: NOW });
    await expect(threeDTexel.search(query("", { types: ["hdri"] }), hdri.ctx)).rejects.toThrow(/no recorded response/);
    expect(hdri.replay.requested).toEqual([`${PUB}/search?q=&page=1&per_page=50`]);
  });

  it("asks the URL each kind of filter maps to", async () => {
    const cases: [Partial<SourceQuery>, string][] = [
      [{}, `${PUB}/search?q=brick&page=1&per_page=50`],
      [{ types: ["texture", "material"], free: true }, `${PUB}/search?q=brick&free=1&page=1&per_page=50`],
      [{ types: ["hdri"], free: true }, `${PUB}/search?q=brick&type=hdri&page=1&per_page=50`],
      [{ types: ["material"] }, `${PUB}/search?q=brick&page=1&per_page=50`],
    ];
    for (const [over, url] of cases) {
      const { ctx, replay } = replayContext({ now: NOW });
      await expect(threeDTexel.search(query("brick", over), ctx)).rejects.toThrow(/no recorded response/);
      expect(replay.requested).toEqual([url]);
    }
    expect(searchApiUrl("old wood ", { type: "pbr", page: 3 })).toBe(`${PUB}/search?q=old%20wood&type=pbr&page=3&per_page=50`);
  });

  it("asks nothing for types no library has, or for downloadable assets (every download needs an account)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    expect(await threeDTexel.search(query("brick", { types: ["audio", "font"] }), ctx)).toEqual({ assets: [], total: 0 });
    expect(await threeDTexel.search(query("brick", { downloadable: true }), ctx)).toEqual({ assets: [], total: 0 });
    expect(replay.requested).toEqual([]);
  });

  it("rejects a changed answer with a message naming the source", async () => {
    const html = replayContext({ now: NOW });
    html.replay.add({ url: FREE, body: "<html>changed</html>" });
    await expect(threeDTexel.search(query("", { free: true }), html.ctx)).rejects.toThrow(/^3dtexel: /);
    const json = replayContext({ now: NOW });
    json.replay.add({ url: FREE, body: '{"results":[]}' });
    await expect(threeDTexel.search(query("", { free: true }), json.ctx)).rejects.toThrow(/^3dtexel: .*no items array/);
    const item = replayContext({ now: NOW });
    item.replay.add({ url: FREE, body: '{"total":1,"items":[{"id":1,"title":"x","type":"pbr","url":"https://3dtexel.com/shop/"}]}' });
    await expect(threeDTexel.search(query("", { free: true }), item.ctx)).rejects.toThrow(/^3dtexel: .*\/product\/<slug>/);
  });
});

describe("3dtexel: getAsset", () => {
  it("finds the product by slug, then its library item by searching its title; the file is the product page", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await threeDTexel.getAsset("mossy-rock-3d-asset-3", ctx);

    expect(replay.requested).toEqual([`${PRODUCT}?slug=mossy-rock-3d-asset-3&_fields=id,slug,title`, MOSSY]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toStrictEqual({
      id: "3dtexel:mossy-rock-3d-asset-3",
      provider: "3dtexel",
      nativeId: "mossy-rock-3d-asset-3",
      title: "Mossy Rock \u2013 3D Asset",
      type: "model",
      tags: [],
      url: "https://3dtexel.com/product/mossy-rock-3d-asset-3/",
      thumbnailUrl: "https://3dtexel.com/wp-content/uploads/2025/11/3d-model-26330-rendu-f-768x768.webp",
      license: CC0,
      price: { free: true },
      downloadable: false,
      files: [
        {
          url: "https://3dtexel.com/product/mossy-rock-3d-asset-3/",
          filename: "mossy-rock-3d-asset-3",
          format: "page",
          group: "archive",
          requiresAuth: true,
        },
      ],
    });
  });

  it("answers null for an unknown slug (an empty list or a 404) and for an id that is no slug", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${PRODUCT}?slug=nope&_fields=id,slug,title`, body: "[]", note: "SYNTHETIC: WordPress answers [] for no match" });
    replay.add({ url: `${PRODUCT}?slug=gone&_fields=id,slug,title`, status: 404, body: '{"code":"rest_no_route"}' });
    expect(await threeDTexel.getAsset("nope", ctx)).toBeNull();
    expect(await threeDTexel.getAsset("gone", ctx)).toBeNull();
    expect(await threeDTexel.getAsset("a/b", ctx)).toBeNull();
    expect(replay.requested).toEqual([`${PRODUCT}?slug=nope&_fields=id,slug,title`, `${PRODUCT}?slug=gone&_fields=id,slug,title`]);
  });

  it("answers null for a product the library search does not list (SYNTHETIC product)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({
      url: `${PRODUCT}?slug=mossy-rock-3d-asset-9&_fields=id,slug,title`,
      body: '[{"id":99999,"slug":"mossy-rock-3d-asset-9","title":{"rendered":"Mossy Rock &#8211; 3D Asset"}}]',
      note: "SYNTHETIC",
    });
    expect(await threeDTexel.getAsset("mossy-rock-3d-asset-9", ctx)).toBeNull();
    expect(replay.requested).toEqual([`${PRODUCT}?slug=mossy-rock-3d-asset-9&_fields=id,slug,title`, MOSSY]);
  });

  it("rejects a changed answer with a message naming the source, and lets HTTP failures propagate", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${PRODUCT}?slug=changed&_fields=id,slug,title`, body: "<html>changed</html>" });
    await expect(threeDTexel.getAsset("changed", ctx)).rejects.toThrow(/^3dtexel: /);
    replay.add({ url: `${PRODUCT}?slug=shape&_fields=id,slug,title`, body: '{"id":1}' });
    await expect(threeDTexel.getAsset("shape", ctx)).rejects.toThrow(/^3dtexel: .*not an array of products/);
    replay.add({ url: `${PRODUCT}?slug=broken&_fields=id,slug,title`, status: 500, body: "oops" });
    const err = await threeDTexel.getAsset("broken", ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect(err).toMatchObject({ source: "3dtexel", kind: "http", status: 500 });
  });
});

describe("3dtexel: census", () => {
  it("counts every library (free and paid) from /types, with the PBR categories", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const census = await threeDTexel.census(ctx);
    expect([...replay.requested].sort()).toEqual([`${PUB}/categories?type=pbr`, `${PUB}/types`]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toStrictEqual({
      id: "3dtexel",
      name: "3DTexel",
      homepage: "https://3dtexel.com",
      total: 8712,
      free: 1888,
      byType: { material: 1358, hdri: 797, model: 371, texture: 1641, other: 4545 },
      byLicense: { "CC0-1.0": 1649, "3DTexel License": 7063 },
      categories: {
        Asphalt: 4,
        Brick: 69,
        Concrete: 24,
        Dirt: 17,
        Fabric: 52,
        Gemstones: 20,
        Grass: 18,
        Gravel: 8,
        Ground: 75,
        Ice: 3,
        Leather: 8,
        Marble: 37,
        Metal: 95,
        Others: 8,
        Sand: 36,
        Snow: 48,
        Stone: 96,
        Stylized: 298,
        Tile: 107,
        Wood: 90,
      },
      unit: "assets",
      highlights: [
        { label: "Largest free library", title: "Handmade PBR materials (CC0)", url: "https://3dtexel.com/pbr-material/", value: 1079 },
        {
          label: "Largest paid library",
          title: "AI-generated 3D animations (UE5, Mixamo, Blender)",
          url: "https://3dtexel.com/motion-community-library/",
          value: 4329,
        },
      ],
      method:
        "3DTexel public API: the `count` of every library in /wp-json/3dtexel/v1/public/types (free = libraries at 0 credits; licences as each library states them); categories are the PBR library's (/categories?type=pbr)",
      countedAt: "2026-11-22T00:00:00.000Z",
    });
    // The free libraries' counts add up to the recorded free search's total.
    expect(census.free).toBe(1888);
  });

  it("rejects a changed list with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${PUB}/types`, body: '{"types":[]}' });
    await expect(threeDTexel.census(ctx)).rejects.toThrow(/^3dtexel: .*libraries/);
  });
});

describe("3dtexel: searchUrl", () => {
  it("is WordPress' product search with the query", () => {
    expect(threeDTexel.searchUrl(query("mossy rock"))).toBe("https://3dtexel.com/?s=mossy%20rock&post_type=product");
  });
});

describe("3dtexel: filters and sorts", () => {
  it("declares exactly the keys its listings carry", async () => {
    const { ctx } = replayContext({ now: NOW });
    const result = await threeDTexel.search(query("brick", { types: ["material"], free: true, limit: 3 }), ctx);
    const assets = result.assets;
    const listed = threeDTexel.filtering!.listed;
    expectListedExactly(assets, listed);
    expect(threeDTexel.filtering!.upstream).toEqual([]);
  });
});
