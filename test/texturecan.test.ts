import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import type { SourceQuery } from "../core/model/source.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { pageWindow } from "../sources/kit/page-window.ts";
import { parseListing, texturecan } from "../sources/texturecan.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { FIXTURES, replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/texturecan/manifest.json. Every page is an upstream excerpt, so
// page 1 of the 'wood' search holds 3 cards (and a pager of 4 pages) and page 2 holds 2.

const NOW = new Date("2026-11-22T00:00:00Z");
const SITE = "https://www.texturecan.com";
const PAGE1 = `${SITE}/search/wood/1/`;
const PAGE2 = `${SITE}/search/wood/2/`;

const query = (q: string, over: Partial<SourceQuery> = {}) => sourceQuery(q, { limit: 3, ...over });

describe("texturecan: metadata", () => {
  it("is a live, scraped CC0 source with direct downloads", () => {
    expect(texturecan).toMatchObject({
      id: "texturecan",
      name: "TextureCan",
      mode: "live",
      access: "scrape",
      pricing: "free",
      supportsDownload: true,
      license: licenseById("CC0-1.0"),
    });
    expect([...texturecan.assetTypes].sort()).toEqual(["model", "texture"]);
  });

  it("maps an offset onto numbered pages", () => {
    expect(pageWindow(0, 3, 3)).toEqual({ pages: [1], skip: 0 });
    expect(pageWindow(3, 2, 3)).toEqual({ pages: [2], skip: 0 });
    expect(pageWindow(2, 3, 3)).toEqual({ pages: [1, 2], skip: 2 });
    expect(pageWindow(50, 24, 24)).toEqual({ pages: [3, 4], skip: 2 });
  });
});

describe("texturecan: search", () => {
  it("scrapes the search page's cards", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await texturecan.search(query("wood"), ctx);
    expect(replay.requested).toEqual([PAGE1]);
    expect(result.total).toBeUndefined(); // 4 pages: no exact count
    expect(result.searchUrl).toBe(PAGE1);
    expect(result.assets.map((a) => a.id)).toEqual(["texturecan:591", "texturecan:590", "texturecan:589"]);
    for (const asset of result.assets) Asset.parse(asset);
    expect(result.assets[0]).toStrictEqual({
      id: "texturecan:591",
      provider: "texturecan",
      nativeId: "591",
      title: "Laminated Long Brown Wood Planks",
      description:
        "These are laminated long wood floor tiles. This type of dark coloured planks is commonly used in interior design. Version 1.01: Fixed gap issue",
      type: "texture",
      tags: [],
      categories: ["Wood"],
      url: "https://www.texturecan.com/details/591/",
      thumbnailUrl: "https://www.texturecan.com/img/textures/wood_0066/wood_0066_sphere_300.png",
      license: licenseById("CC0-1.0"),
      price: { free: true },
      formats: ["zip"],
      downloadable: true,
    });
  });

  it("reads the page size from page 1 and pages on from there", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await texturecan.search(query("wood", { offset: 3, limit: 2 }), ctx);
    expect(replay.requested).toEqual([PAGE1, PAGE2]);
    expect(result.assets.map((a) => [a.nativeId, a.title])).toEqual([
      ["458", "Old Wood Texture"],
      ["456", "White Painted Wood Planks"],
    ]);
  });

  it("joins pages when the window crosses them", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await texturecan.search(query("wood", { offset: 2, limit: 2 }), ctx);
    expect([...replay.requested].sort()).toEqual([PAGE1, PAGE2]);
    expect(result.assets.map((a) => a.nativeId)).toEqual(["589", "458"]);
  });

  it("keeps the pages that answered when a later page fails (pages 3 and 4 are not recorded)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // The default limit 24 over pages of 3 cards asks every page of the pager (4).
    const result = await texturecan.search(query("wood", { limit: 24 }), ctx);
    expect(replay.requested).toEqual([PAGE1, PAGE2, `${SITE}/search/wood/3/`, `${SITE}/search/wood/4/`]);
    expect(result.assets.map((a) => a.nativeId)).toEqual(["591", "590", "589", "458", "456"]);
    expect(result.total).toBeUndefined();
  });

  it("ends the window at the first failed page, so the results stay contiguous", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: PAGE2, status: 503, body: "busy" });
    const result = await texturecan.search(query("wood", { limit: 24 }), ctx);
    expect(result.assets.map((a) => a.nativeId)).toEqual(["591", "590", "589"]);
  });

  it("still fails when the window's first page fails", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // Offset 6 starts on page 3 (not recorded): nothing of the window answered.
    await expect(texturecan.search(query("wood", { offset: 6, limit: 2 }), ctx)).rejects.toThrow(`${SITE}/search/wood/3/`);
    expect(replay.requested).toEqual([PAGE1, `${SITE}/search/wood/3/`]);
    const other = replayContext({ now: NOW });
    await expect(texturecan.search(query("chair"), other.ctx)).rejects.toThrow(`${SITE}/search/chair/1/`);
  });

  it("asks nothing without words or for types it does not have", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    expect((await texturecan.search(query(""), ctx)).assets).toEqual([]);
    expect((await texturecan.search(query("wood", { types: ["hdri"] }), ctx)).assets).toEqual([]);
    expect(replay.requested).toEqual([]);
  });

  it("keeps a card whose thumbnail src is not a usable URL, without the thumbnail", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // SYNTHETIC page: one card in the recorded markup, its img src an unparsable URL.
    const card = (src: string) =>
      `<div class="article-box"><div class="texture-header"><a href="/details/591/">Wood 1<br />(Wood 0001)</a></div>` +
      `<div class="texture-img"><img src="${src}" alt="Wood 1" /></div><div class="texture-desc"></div></div>`;
    replay.add({ url: PAGE1, body: `<html><body><div class="articles">${card("http://[broken")}</div></body></html>` });
    const { assets } = await texturecan.search(query("wood"), ctx);
    expect(assets).toHaveLength(1);
    expect(assets[0]).toMatchObject({ id: "texturecan:591", title: "Wood 1" });
    expect(assets[0]).not.toHaveProperty("thumbnailUrl");
  });

  it("rejects a changed page, naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: PAGE1, body: "<html>changed</html>" });
    await expect(texturecan.search(query("wood"), ctx)).rejects.toThrow(/texturecan: listing page has no .articles/);
  });
});

describe("texturecan: getAsset", () => {
  it("reads a texture's meta tags and its direct zip links", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await texturecan.getAsset("591", ctx);
    expect(replay.requested).toEqual([`${SITE}/details/591/`]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({
      id: "texturecan:591",
      title: "Laminated Long Brown Wood Planks",
      type: "texture",
      categories: ["Wood"],
      thumbnailUrl: "https://www.texturecan.com/img/textures/wood_0066/wood_0066_1200.jpg",
      license: { spdx: "CC0-1.0" },
      formats: ["zip", "sbsar"],
      resolutions: ["1k", "2k", "4k"],
      downloadable: true,
      createdAt: "2022-12-20T00:00:00.000Z",
    });
    expect(details!.tags).toContain("Laminated");
    expect(details!.files).toStrictEqual([
      { url: `${SITE}/downloads/wood_0066/wood_0066_1k_HoQeAg.zip`, filename: "wood_0066_1k_HoQeAg.zip", format: "zip", resolution: "1k", group: "archive" },
      { url: `${SITE}/downloads/wood_0066/wood_0066_2k_dljIUy.zip`, filename: "wood_0066_2k_dljIUy.zip", format: "zip", resolution: "2k", group: "archive" },
      { url: `${SITE}/downloads/wood_0066/wood_0066_4k_Yo4CD0.zip`, filename: "wood_0066_4k_Yo4CD0.zip", format: "zip", resolution: "4k", group: "archive" },
      { url: `${SITE}/downloads/wood_0066/wood_0066_sbsar_n6twfq.zip`, filename: "wood_0066_sbsar_n6twfq.zip", format: "zip", group: "sbsar" },
    ]);
  });

  it("reads a model page (model-<n>) with its single zip", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await texturecan.getAsset("model-547", ctx);
    expect(replay.requested).toEqual([`${SITE}/models/details/547/`]);
    expect(details).toMatchObject({ id: "texturecan:model-547", type: "model", title: "Gold Coin 3D Model", polyCount: 700, categories: ["Finance"] });
    expect(details!.files).toStrictEqual([
      {
        url: `${SITE}/downloads/models/gold_coin_0001/gold_coin_0001_QMhlgT.zip`,
        filename: "gold_coin_0001_QMhlgT.zip",
        format: "zip",
        resolution: "4k",
        group: "archive",
      },
    ]);
  });

  it("answers null for an id that is not TextureCan's, or a 404", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${SITE}/details/99999/`, status: 404, body: "not found" });
    expect(await texturecan.getAsset("not-an-id", ctx)).toBeNull();
    expect(await texturecan.getAsset("99999", ctx)).toBeNull();
    expect(replay.requested).toEqual([`${SITE}/details/99999/`]);
  });

  it("rejects a changed page, naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${SITE}/details/591/`, body: "<html>changed</html>" });
    await expect(texturecan.getAsset("591", ctx)).rejects.toThrow(/texturecan: details page has no og:title/);
  });
});

describe("texturecan: census", () => {
  it("counts the models listing as a lower bound", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const census = await texturecan.census(ctx);
    expect(replay.requested).toEqual([`${SITE}/models/`]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toMatchObject({
      total: 3,
      atLeast: true,
      byType: { model: 3 },
      highlights: [{ label: "Newest model", title: "Gold Coin 3D Model", url: `${SITE}/models/details/547/` }],
      countedAt: NOW.toISOString(),
    });
  });
});

describe("texturecan: searchUrl", () => {
  it("opens the site's search page", () => {
    expect(texturecan.searchUrl(query("red brick"))).toBe(`${SITE}/search/red%20brick/1/`);
    expect(texturecan.searchUrl(query(""))).toBe(SITE);
  });
});

describe("texturecan: filters and sorts", () => {
  it("declares exactly the keys its listings carry", async () => {
    const { ctx } = replayContext({ now: NOW });
    const result = await texturecan.search(query("wood"), ctx);
    const assets = [...result.assets, ...parseListing(readFileSync(join(FIXTURES, "texturecan", "models_excerpt.html"), "utf8"), `${SITE}/models/`).cards];
    // The wood search holds textures only: the recorded models listing shows the triangle counts of model cards.
    const listed = texturecan.filtering!.listed;
    expectListedExactly(assets, listed);
    expect(texturecan.filtering!.upstream).toEqual([]);
  });
});
