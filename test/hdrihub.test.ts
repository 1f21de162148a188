import { describe, expect, it } from "vitest";
import { SourceError } from "../core/model/source-error.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { hdrihub, parseSearch, typeOfPath } from "../sources/hdrihub.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/hdrihub/manifest.json (real page excerpts: search results with
// streamed React Server Components segments, a product page's JSON-LD, the HDRI category's ItemList).

const NOW = new Date("2026-11-22T00:00:00Z");
const SITE = "https://www.hdri-hub.com";
const PRODUCT_ID = "hdri~space~hdr-180-8-space-sky-and-nebula";
const PRODUCT_URL = `${SITE}/shop/hdri/space/hdr-180-8-space-sky-and-nebula`;

const query = sourceQuery;

describe("hdrihub: metadata", () => {
  it("is a live, paid scrape source of HDRIs without direct downloads", () => {
    expect(hdrihub).toMatchObject({
      id: "hdrihub",
      name: "HDRI Hub",
      homepage: SITE,
      mode: "live",
      access: "scrape",
      pricing: "paid",
      supportsDownload: false,
      unit: "assets",
    });
    expect(hdrihub.assetTypes).toContain("hdri");
    expect(hdrihub.license).toBeUndefined();
  });
});

describe("hdrihub: search", () => {
  it("reads the streamed results, fills the P:1 placeholder from S:1 and skips the sidebar card", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await hdrihub.search(query("garage"), ctx);

    expect(replay.requested).toEqual([`${SITE}/search?q=garage`]);
    expect(result.total).toBe(8);
    expect(result.assets.map((a) => [a.title, a.type, a.price?.amount])).toEqual([
      ["HDR 039 Garage Plates - Layout License", "other", 9],
      ["HDR 039 Garage Plates", "pack", 49],
      ["HDR Pack 005", "pack", 49],
      // The streamed card: its title and price only exist in the hidden S:1 segment.
      ["HDR 039 Garage 2 16k", "hdri", 20],
    ]);
    expect(result.assets.some((a) => a.title.startsWith("HDR 180-8"))).toBe(false);
    for (const asset of result.assets) expect(Asset.parse(asset)).toStrictEqual(asset);
    expect(result.assets[3]).toStrictEqual({
      id: "hdrihub:hdri~indoor~hdr-039-garage-2-16k",
      provider: "hdrihub",
      nativeId: "hdri~indoor~hdr-039-garage-2-16k",
      title: "HDR 039 Garage 2 16k",
      type: "hdri",
      tags: [],
      url: `${SITE}/shop/hdri/indoor/hdr-039-garage-2-16k`,
      thumbnailUrl: `${SITE}/api/media/file/hdr-039-garage-2-16k-featured-3-400x267.jpg`,
      price: { free: false, amount: 20, currency: "EUR" },
      downloadable: false,
    });
  });

  it("reads free samples (a bare 0 price) and filters by type and price on the page", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const all = await hdrihub.search(query("free"), ctx);
    expect(all.total).toBe(17);
    expect(all.assets.map((a) => [a.title, a.type, a.price])).toEqual([
      ["Free Casual 3D People - Dennis", "model", { free: true }],
      ["Free Casual 3D People - Rosy", "model", { free: true }],
    ]);
    const free = await hdrihub.search(query("free", { free: true }), ctx);
    expect(free.assets).toHaveLength(2);
    expect(free.total).toBeUndefined(); // filtered here: the site's count no longer applies
    expect((await hdrihub.search(query("free", { types: ["hdri"] }), ctx)).assets).toEqual([]);
    expect((await hdrihub.search(query("garage", { free: true }), ctx)).assets).toEqual([]);
    expect((await hdrihub.search(query("free", { downloadable: true }), ctx)).assets).toEqual([]);
    // One request per query: the client's cache answers the repeats.
    expect(replay.requested).toEqual([`${SITE}/search?q=free`, `${SITE}/search?q=garage`]);
  });

  it("slices the one page by offset and limit", async () => {
    const { ctx } = replayContext({ now: NOW });
    const page = await hdrihub.search(query("garage", { offset: 1, limit: 2 }), ctx);
    expect(page.assets.map((a) => a.title)).toEqual(["HDR 039 Garage Plates", "HDR Pack 005"]);
    expect(page.total).toBe(8);
  });

  it("answers the streamed no-results block with nothing", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await hdrihub.search(query("zzzz"), ctx);
    expect(replay.requested).toEqual([`${SITE}/search?q=zzzz`]);
    expect(result).toEqual({ assets: [], total: 0, searchUrl: `${SITE}/search?q=zzzz` });
  });

  it("rejects a changed page with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${SITE}/search?q=garage`, body: "<html>changed</html>" });
    await expect(hdrihub.search(query("garage"), ctx)).rejects.toThrow(/^hdrihub: /);
    expect(() => parseSearch("<html><body><p>nothing</p></body></html>")).toThrow(/^hdrihub: /);
  });

  it("types products by their shop path", () => {
    expect(typeOfPath("/shop/hdri/space/hdr-180-8-space-sky-and-nebula")).toBe("hdri");
    expect(typeOfPath("/shop/hdri/bundles/hdr-pack-005")).toBe("pack");
    expect(typeOfPath("/shop/backplates/sets-bundles/hdr-039-garage-plates")).toBe("pack");
    expect(typeOfPath("/shop/backplates/layout-private-use/hdr-039-garage-layout")).toBe("other");
    expect(typeOfPath("/shop/free-samples/free-3d-people-models-for-architectural-visualization/free-male-casual-3d-model-dennis")).toBe("model");
    expect(typeOfPath("/shop/textures/wood/oak-01")).toBe("texture");
  });
});

describe("hdrihub: getAsset", () => {
  it("reads the Product JSON-LD: one purchase link per offered resolution", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await hdrihub.getAsset(PRODUCT_ID, ctx);

    expect(replay.requested).toEqual([PRODUCT_URL]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({
      id: `hdrihub:${PRODUCT_ID}`,
      title: "HDR 180-8 Space Sky with Nebula",
      description:
        "HDR 180-8 Space Sky with Nebula: Outer space sky star map with a thick nebula. 4096px resolution. From $9.9, commercial license, instant download.",
      type: "hdri",
      tags: ["scifi", "space", "stars"],
      categories: ["Space"],
      url: PRODUCT_URL,
      thumbnailUrl: `${SITE}/media/hdr-180-8-space-sky-and-nebula-featured-3.jpg`,
      author: "HDRI Hub",
      price: { free: false, amount: 9.9, currency: "USD" },
      resolutions: ["4k", "12k"],
      downloadable: false,
    });
    expect(details!.files).toStrictEqual([
      { url: PRODUCT_URL, filename: "hdr-180-8-space-sky-and-nebula-4096px", format: "page", resolution: "4k", group: "hdri", requiresAuth: true },
      { url: PRODUCT_URL, filename: "hdr-180-8-space-sky-and-nebula-12288px", format: "page", resolution: "12k", group: "hdri", requiresAuth: true },
      { url: PRODUCT_URL, filename: "hdr-180-8-space-sky-and-nebula-cubemap-6x-2048", format: "page", resolution: "2k", group: "cubemap", requiresAuth: true },
      { url: PRODUCT_URL, filename: "hdr-180-8-space-sky-and-nebula-cubemap-6x-4096", format: "page", resolution: "4k", group: "cubemap", requiresAuth: true },
    ]);
  });

  it("answers null for an unknown product (404) and for an id that is no shop path, without asking", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${SITE}/shop/hdri/space/no-such-hdri`, status: 404, body: "<html>404</html>" });
    expect(await hdrihub.getAsset("hdri~space~no-such-hdri", ctx)).toBeNull();
    expect(await hdrihub.getAsset("hdri~..~x", ctx)).toBeNull();
    expect(await hdrihub.getAsset("lonely", ctx)).toBeNull();
    expect(replay.requested).toEqual([`${SITE}/shop/hdri/space/no-such-hdri`]);
  });

  it("rejects a page without Product JSON-LD with a message naming the source; HTTP failures propagate", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: PRODUCT_URL, body: "<html>changed</html>" });
    await expect(hdrihub.getAsset(PRODUCT_ID, ctx)).rejects.toThrow(/^hdrihub: /);
    replay.add({ url: `${SITE}/shop/hdri/space/broken`, status: 502, body: "bad gateway" });
    const err = await hdrihub.getAsset("hdri~space~broken", ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
  });
});

describe("hdrihub: census", () => {
  it("reads numberOfItems of the HDRI category's ItemList, as a lower bound for the shop", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const census = await hdrihub.census(ctx);
    expect(replay.requested).toEqual([`${SITE}/shop/hdri`]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toStrictEqual({
      id: "hdrihub",
      name: "HDRI Hub",
      homepage: SITE,
      total: 24,
      atLeast: true,
      byType: { hdri: 24 },
      categories: { HDRI: 24 },
      unit: "assets",
      method:
        "numberOfItems of the schema.org ItemList on the HDRI category page (/shop/hdri); no sitemap was recorded, so the other shop sections are not counted (a lower bound)",
      countedAt: "2026-11-22T00:00:00.000Z",
    });
  });

  it("rejects a category page without the ItemList", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${SITE}/shop/hdri`, body: "<html>changed</html>" });
    await expect(hdrihub.census(ctx)).rejects.toThrow(/^hdrihub: /);
  });
});

describe("hdrihub: searchUrl", () => {
  it("is the site's own search page", () => {
    expect(hdrihub.searchUrl(query("garage"))).toBe(`${SITE}/search?q=garage`);
    expect(hdrihub.searchUrl(query("night city"))).toBe(`${SITE}/search?q=night%20city`);
  });
});

describe("hdrihub: filters and sorts", () => {
  it("declares exactly the keys its listings carry", async () => {
    const { ctx } = replayContext({ now: NOW });
    const result = await hdrihub.search(query("garage"), ctx);
    const assets = result.assets;
    // Cards carry no field any filter or data sort reads, so nothing is listed.
    const listed = hdrihub.filtering!.listed;
    expectListedExactly(assets, listed);
    expect(hdrihub.filtering!.upstream).toEqual([]);
  });
});
