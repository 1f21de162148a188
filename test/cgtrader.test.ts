import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { selectFiles } from "../core/model/selection.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { cgtrader, listingUrl } from "../sources/cgtrader.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/cgtrader/manifest.json. The two census URLs are stand-ins
// (the real 'chair' and free 'wooden chair' listings). The WAF challenge page is served by the tests.

const NOW = new Date("2026-11-22T00:00:00Z");
const SITE = "https://www.cgtrader.com";
const SEARCH_CHAIR = `${SITE}/search?keywords=chair`;
const SEARCH_FREE = `${SITE}/search?free=1&keywords=wooden+chair`;
const FREE_ID = "free-3d-models~furniture~chair~outdooring-wooden-chair-free";
const FREE_PAGE = `${SITE}/free-3d-models/furniture/chair/outdooring-wooden-chair-free`;
const PAID_ID = "3d-models~furniture~chair~dining-chair-armrest-chair-walnut-wood-amir";
const PAID_PAGE = `${SITE}/3d-models/furniture/chair/dining-chair-armrest-chair-walnut-wood-amir`;
const FIXTURES = `${import.meta.dirname}/fixtures/cgtrader`;
const RF = { name: "CGTrader Royalty Free License (no AI use)", url: `${SITE}/pages/terms-and-conditions#royalty-free-license` };

const query = sourceQuery;

/** Serves the recorded AWS WAF challenge page for `url`, with the status the WAF uses. */
const challenge = (replay: ReturnType<typeof replayContext>["replay"], url: string, status = 202) =>
  replay.add({ url, status, file: "waf_challenge_redacted.html", headers: { "content-type": "text/html" } }, FIXTURES);

describe("cgtrader: metadata", () => {
  it("is a live freemium scrape source without direct downloads", () => {
    expect(cgtrader).toMatchObject({
      id: "cgtrader",
      name: "CGTrader",
      homepage: "https://www.cgtrader.com",
      mode: "live",
      access: "scrape",
      pricing: "freemium",
      supportsDownload: false,
      assetTypes: ["model"],
    });
    expect(cgtrader.key).toBeUndefined();
  });
});

describe("cgtrader: search", () => {
  it("asks the listing JSON and maps every item", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const res = await cgtrader.search(query("chair"), ctx);

    expect(replay.requested).toEqual([SEARCH_CHAIR]);
    expect(replay.log[0]!.headers.accept).toBe("application/json");
    expect(res.total).toBe(233502);
    expect(res.searchUrl).toBe(SEARCH_CHAIR);
    expect(res.assets.map((a) => a.title)).toEqual([
      "Dining chair armrest chair walnut wood Amir",
      "Coll01-Furniture ornate upholstered chair",
      "Kroken easy chair interior scene",
      "Chair Collection 8 Models Furniture Seating Pack 3D Models",
    ]);
    for (const asset of res.assets) expect(Asset.parse(asset)).toStrictEqual(asset);

    expect(res.assets[0]).toStrictEqual({
      id: `cgtrader:${PAID_ID}`,
      provider: "cgtrader",
      nativeId: PAID_ID,
      title: "Dining chair armrest chair walnut wood Amir",
      description:
        "Name: Dining chair armrest chair walnut wood Amir\nType: model\nFormat: 3Ds Max 2016\nExport: FBX, OBJ\nRender: Corona (10)\nPolys: 7416\nVerts: 4304\nUnits: Millimeters\nDimension: 597.1 x 587.83 x 801.31\nDescription: The Dining chair armrest chair walnut wood Amir is a minimalist, Japandi-style 3D model f",
      type: "model",
      tags: [],
      categories: ["Furniture", "Chair"],
      url: PAID_PAGE,
      thumbnailUrl: "https://img-new.cgtrader.com/items/6254357/94d09fad0e/dining-chair-armrest-chair-walnut-wood-amir-3d-model-94d09fad0e.webp",
      price: { free: false, amount: 17, currency: "USD" },
      formats: ["max", "obj", "jpg", "png", "fbx"], // the list's null entry dropped
      animated: false,
      rigged: false,
      downloadable: false,
    });
    // The listing says nothing of licences.
    expect(res.assets[0]!.license).toBeUndefined();
    // 20.0 with saleOffDiscount 30: the list price is kept.
    expect(res.assets[1]!.price).toEqual({ free: false, amount: 20, currency: "USD" });
  });

  it("asks the free listing with free=1 first, as the site writes it", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const res = await cgtrader.search(query("wooden chair", { free: true }), ctx);

    expect(replay.requested).toEqual([SEARCH_FREE]);
    expect(res.total).toBe(12597);
    expect(res.assets).toHaveLength(4);
    expect(res.assets[0]).toMatchObject({
      nativeId: FREE_ID,
      title: "Outdoor Wooden Chair Free",
      url: FREE_PAGE,
      price: { free: true },
      formats: ["max", "fbx", "obj"],
      downloadable: false,
    });
    expect(res.assets.every((a) => a.price?.free === true)).toBe(true);
  });

  it("maps offset to 120-item pages and cuts the window", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // offset 240, limit 2: page 3 from its first item.
    const page3 = `${SITE}/search?keywords=chair&page=3`;
    replay.add({ url: page3, file: "search_chair.json", note: "the real page-1 answer reused for page 3" }, FIXTURES);
    const res = await cgtrader.search(query("chair", { offset: 240, limit: 2 }), ctx);
    expect(replay.requested).toEqual([page3]);
    expect(res.assets.map((a) => a.title)).toEqual(["Dining chair armrest chair walnut wood Amir", "Coll01-Furniture ornate upholstered chair"]);

    // offset 119, limit 3: items 119..121 span pages 1 and 2; the short page 1 (4 items, trimmed
    // upstream) ends the listing, so page 2 is not asked.
    const { ctx: ctx2, replay: replay2 } = replayContext({ now: NOW });
    const res2 = await cgtrader.search(query("chair", { offset: 119, limit: 3 }), ctx2);
    expect(replay2.requested).toEqual([SEARCH_CHAIR]);
    expect(res2.assets).toEqual([]);
  });

  it("keeps page 1's items when the next page of the window fails (scripted full page 1, page 2 missing)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const recorded = JSON.parse(readFileSync(join(FIXTURES, "search_chair.json"), "utf8"));
    const [item] = recorded.data;
    // Scripted: 120 copies of the first recorded item, each with its own URL, as a full page 1.
    const data = Array.from({ length: 120 }, (_, i) => ({
      ...item,
      id: String(i),
      attributes: { ...item.attributes, id: i, title: `Chair ${i}`, url: `${SITE}/3d-models/furniture/chair/chair-${i}` },
    }));
    replay.add({ url: SEARCH_CHAIR, body: JSON.stringify({ ...recorded, data }), note: "scripted" });
    const res = await cgtrader.search(query("chair", { offset: 118, limit: 4 }), ctx);
    expect(replay.requested).toEqual([SEARCH_CHAIR, `${SITE}/search?keywords=chair&page=2`]);
    expect(res.assets.map((a) => a.title)).toEqual(["Chair 118", "Chair 119"]);
    expect(res.total).toBe(233502);
    // A failing first page still fails the search.
    const other = replayContext({ now: NOW });
    other.replay.add({ url: SEARCH_CHAIR, status: 500, body: "oops", note: "scripted" });
    await expect(cgtrader.search(query("chair", { offset: 118, limit: 4 }), other.ctx)).rejects.toThrow();
  });

  it("asks nothing for other types or for direct downloads", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    expect(await cgtrader.search(query("chair", { types: ["texture", "material"] }), ctx)).toEqual({ assets: [] });
    expect(await cgtrader.search(query("chair", { downloadable: true }), ctx)).toEqual({ assets: [] });
    expect(replay.requested).toEqual([]);
  });

  it("detects the bot challenge (202), names it, and never caches it", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    challenge(replay, SEARCH_CHAIR);
    await expect(cgtrader.search(query("chair"), ctx)).rejects.toThrow("cgtrader: blocked by the site's bot challenge (HTTP 202)");
    await expect(cgtrader.search(query("chair"), ctx)).rejects.toThrow(/^cgtrader: blocked by the site's bot challenge/);
    expect(replay.requested).toEqual([SEARCH_CHAIR, SEARCH_CHAIR]); // asked again: nothing was cached

    // Once the wall is gone, the next search gets the listing.
    replay.add({ url: SEARCH_CHAIR, file: "search_chair.json" }, FIXTURES);
    expect((await cgtrader.search(query("chair"), ctx)).assets).toHaveLength(4);
  });

  it("detects the CAPTCHA answer (405) and a challenge page served with 200", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    challenge(replay, SEARCH_CHAIR, 405);
    await expect(cgtrader.search(query("chair"), ctx)).rejects.toThrow("cgtrader: blocked by the site's bot challenge (HTTP 405)");
    challenge(replay, SEARCH_FREE, 200);
    await expect(cgtrader.search(query("wooden chair", { free: true }), ctx)).rejects.toThrow("cgtrader: blocked by the site's bot challenge (HTTP 200)");
  });

  it("rejects a changed listing with a message naming the source", async () => {
    const cases: Array<[string, RegExp]> = [
      ["<html>changed</html>", /^cgtrader: listing did not answer JSON/],
      ['{"items":[]}', /^cgtrader: listing JSON has no data array or meta.totalCount/],
      ['{"data":[{"id":1},{"id":2}],"meta":{"totalCount":2}}', /^cgtrader: no listing item has the expected shape/],
    ];
    for (const [body, message] of cases) {
      const { ctx, replay } = replayContext({ now: NOW });
      replay.add({ url: SEARCH_CHAIR, body });
      await expect(cgtrader.search(query("chair"), ctx)).rejects.toThrow(message);
    }
  });
});

describe("cgtrader: filters", () => {
  it("asks one wanted format upstream as file_types[]=<the listing's format id>", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const url = `${SITE}/search?file_types%5B%5D=12&free=1&keywords=wooden+chair`;
    // STAND-IN: the recorded body of the unfiltered free 'wooden chair' listing, served for the filtered URL.
    replay.add({ method: "GET", url, file: "search_wooden_chair_free.json", status: 200, headers: { "content-type": "application/json" } }, FIXTURES);
    const filtered = query("wooden chair", { free: true, filters: { format: ["obj"] } });
    const res = await cgtrader.search(filtered, ctx);
    expect(replay.requested).toEqual([url]);
    expect(res.assets).toHaveLength(4);
    expect(res.searchUrl).toBe(url);
    expect(cgtrader.searchUrl(filtered)).toBe(url);
    expect(listingUrl("chair", false, 2, 117)).toBe(`${SITE}/search?file_types%5B%5D=117&keywords=chair&page=2`);
  });

  it("leaves file_types[] out for a format without a known id, or several formats", async () => {
    for (const format of [
      ["obj", "glb"],
      ["obj", "fbx"],
    ]) {
      const { ctx, replay } = replayContext({ now: NOW });
      await cgtrader.search(query("chair", { filters: { format } }), ctx);
      expect(replay.requested).toEqual([SEARCH_CHAIR]);
    }
  });

  it("declares what its listings carry, and nothing they do not", async () => {
    const listed = cgtrader.filtering!.listed;
    for (const url of [SEARCH_CHAIR, SEARCH_FREE]) {
      const { ctx } = replayContext({ now: NOW });
      const { assets } = await cgtrader.search(query(url === SEARCH_CHAIR ? "chair" : "wooden chair", { free: url === SEARCH_FREE }), ctx);
      expectListedExactly(assets, listed);
      expect(assets.every((a) => a.downloads === undefined)).toBe(true);
    }
    expect(cgtrader.filtering!.upstream).toEqual(["format"]);
  });
});

describe("cgtrader: getAsset", () => {
  it("reads a free product page; files are login links, one per format", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await cgtrader.getAsset(FREE_ID, ctx);

    expect(replay.requested).toEqual([FREE_PAGE]);
    expect(replay.log[0]!.headers.accept).toBe("text/html");
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({
      id: `cgtrader:${FREE_ID}`,
      title: "Outdoor Wooden Chair Free", // JSON-LD "Outdoor Wooden Chair Free | 3D model"
      type: "model",
      url: FREE_PAGE,
      thumbnailUrl: "https://img-new.cgtrader.com/items/2638330/2e7be70f60/outdoor-wooden-chair-free-3d-model-2e7be70f60.webp",
      author: "merrilikusi",
      license: RF, // pricingArea.license royalty_free_no_ai, URL from the JSON-LD images
      price: { free: true },
      categories: ["Furniture", "Chair"],
      formats: ["max", "obj", "fbx"],
      polyCount: 90288,
      animated: false,
      rigged: false,
      downloadable: false,
      createdAt: "2020-10-05",
    });
    expect(details!.description).toMatch(/^Simple outdooring chair\/daybed, 2 piece set\./);
    expect(details!.tags).toHaveLength(27);
    expect(details!.tags.slice(0, 3)).toEqual(["chair", "wood", "pillow"]);
    expect(details!.files).toStrictEqual(
      ["max", "obj", "fbx"].map((format) => ({
        url: FREE_PAGE,
        filename: `outdooring-wooden-chair-free.${format}`,
        format,
        group: format,
        requiresAuth: true,
      })),
    );
    expect(selectFiles(details!, {})).toEqual([]); // nothing the server could fetch
  });

  it("reads a paid product page with its price", async () => {
    const { ctx } = replayContext({ now: NOW });
    const details = await cgtrader.getAsset(PAID_ID, ctx);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({
      title: "Dining chair armrest chair walnut wood Amir",
      url: PAID_PAGE,
      author: "cgdoca",
      license: RF,
      price: { free: false, amount: 17, currency: "USD" },
      formats: ["max", "obj", "fbx", "jpg", "png"], // TEXTURES is no format
      polyCount: 7416,
      createdAt: "2025-06-30",
    });
    expect(details!.description).toMatch(/Corona Renderer projects\.\nTags: dining chair/); // two <p>, two lines
    expect(details!.files.map((f) => [f.format, f.group, f.requiresAuth])).toEqual([
      ["max", "max", true],
      ["obj", "obj", true],
      ["fbx", "fbx", true],
      ["jpg", "textures", true],
      ["png", "textures", true],
    ]);
    expect(new Set(details!.files.map((f) => f.url))).toEqual(new Set([PAID_PAGE]));
  });

  it("answers null for a 404 and for an id that is no product path (without asking)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${SITE}/3d-models/furniture/chair/gone`, status: 404, body: "<html>not found</html>" });
    expect(await cgtrader.getAsset("3d-models~furniture~chair~gone", ctx)).toBeNull();
    expect(await cgtrader.getAsset("..~..~admin", ctx)).toBeNull();
    expect(await cgtrader.getAsset("3d-models/furniture", ctx)).toBeNull();
    expect(await cgtrader.getAsset("single", ctx)).toBeNull();
    expect(replay.requested).toEqual([`${SITE}/3d-models/furniture/chair/gone`]);
  });

  it("detects the bot challenge on product pages", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    challenge(replay, FREE_PAGE);
    await expect(cgtrader.getAsset(FREE_ID, ctx)).rejects.toThrow("cgtrader: blocked by the site's bot challenge (HTTP 202)");
  });

  it("rejects a changed product page with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: FREE_PAGE, body: "<html>changed</html>" });
    await expect(cgtrader.getAsset(FREE_ID, ctx)).rejects.toThrow(/^cgtrader: product page has neither JSON-LD Product nor item props/);
  });
});

describe("cgtrader: census", () => {
  it("reads meta.totalCount of the whole listing and of the free one", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const census = await cgtrader.census(ctx);

    expect(replay.requested).toEqual([`${SITE}/search`, `${SITE}/search?free=1`]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    // Stand-ins: the 'chair' (233502) and free 'wooden chair' (12597) totals.
    expect(census).toStrictEqual({
      id: "cgtrader",
      name: "CGTrader",
      homepage: "https://www.cgtrader.com",
      total: 233502,
      free: 12597,
      byType: { model: 233502 },
      unit: "assets",
      method: "CGTrader listing JSON (/search, with and without free=1): meta.totalCount of each",
      countedAt: "2026-11-22T00:00:00.000Z",
    });
  });

  it("marks a total at the search engine's 10,000 cap as a lower bound", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${SITE}/search`, body: '{"data":[],"meta":{"totalCount":10000,"perPage":120}}' });
    const census = await cgtrader.census(ctx);
    expect(census).toMatchObject({ total: 10000, atLeast: true, free: 12597 });
  });

  it("fails on the bot challenge instead of counting it", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    challenge(replay, `${SITE}/search?free=1`);
    await expect(cgtrader.census(ctx)).rejects.toThrow(/^cgtrader: blocked by the site's bot challenge/);
  });
});

describe("cgtrader: searchUrl", () => {
  it("is the same listing URL, for people", () => {
    expect(cgtrader.searchUrl(query("wooden chair", { free: true }))).toBe(SEARCH_FREE);
    expect(cgtrader.searchUrl(query("chair"))).toBe(SEARCH_CHAIR);
    expect(listingUrl("chair", false, 2)).toBe(`${SITE}/search?keywords=chair&page=2`);
    expect(listingUrl("", false)).toBe(`${SITE}/search`);
  });
});
