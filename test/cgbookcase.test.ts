import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { cgbookcase, slugOf } from "../sources/cgbookcase.ts";
import { sourceQuery } from "./helpers/query.ts";
import { FIXTURES, replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/cgbookcase/manifest.json (the catalogue trimmed upstream to 7
// entries, and two texture-page excerpts).

const NOW = new Date("2026-11-22T00:00:00Z");
const SITE = "https://www.cgbookcase.com";
const CATALOGUE = `${SITE}/api/textures`;
const thanks = (t: string, r: number, u: string) => `${SITE}/textures/thanks?t=${t}&r=${r}&u=${u}`;

const query = sourceQuery;

describe("cgbookcase: metadata", () => {
  it("is an indexed CC0 API source whose files need the site", () => {
    expect(cgbookcase).toMatchObject({
      id: "cgbookcase",
      mode: "indexed",
      access: "api",
      pricing: "free",
      supportsDownload: false,
      license: licenseById("CC0-1.0"),
      assetTypes: ["texture"],
    });
    expect(cgbookcase).not.toHaveProperty("search");
  });

  it("derives the page slug from the title", () => {
    expect(slugOf("Brick Wall 29")).toBe("brick-wall-29");
    expect(slugOf("Granite 08 large")).toBe("granite-08-large");
  });
});

describe("cgbookcase: crawl", () => {
  it("reads the whole catalogue in one request", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const assets = await cgbookcase.crawl(ctx);
    expect(replay.requested).toEqual([CATALOGUE]);
    expect(assets.map((a) => a.nativeId)).toEqual([
      "manhole-cover-16",
      "red-rock-01",
      "brick-wall-29",
      "brick-wall-04",
      "granite-08-large",
      "bark-01",
      "tree-07",
    ]);
    for (const asset of assets) Asset.parse(asset);
    expect(assets[2]).toStrictEqual({
      id: "cgbookcase:brick-wall-29",
      provider: "cgbookcase",
      nativeId: "brick-wall-29",
      title: "Brick Wall 29",
      type: "texture",
      tags: ["house", "wall", "bricks", "brown", "pbr-procedural"], // tags, colours, then oneType
      categories: ["Walls"],
      url: "https://www.cgbookcase.com/textures/brick-wall-29",
      license: licenseById("CC0-1.0"),
      price: { free: true },
      formats: ["zip"],
      downloadable: false,
      createdAt: "2021-06-30T00:00:00.000Z",
    });
  });

  it("tags each texture with how it was made (oneType)", async () => {
    const { ctx } = replayContext({ now: NOW });
    const assets = await cgbookcase.crawl(ctx);
    expect(Object.fromEntries(assets.map((a) => [a.nativeId, a.tags.at(-1)]))).toEqual({
      "manhole-cover-16": "pbr-scanned",
      "red-rock-01": "pbr-scanned",
      "brick-wall-29": "pbr-procedural",
      "brick-wall-04": "pbr-procedural",
      "granite-08-large": "pbr-procedural",
      "bark-01": "pbr-approximated",
      "tree-07": "plain-photo",
    });
  });

  it("rejects a catalogue that is no array, naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: CATALOGUE, body: JSON.stringify({ error: "changed" }) });
    await expect(cgbookcase.crawl(ctx)).rejects.toThrow(/cgbookcase: \/api\/textures did not answer an array/);
  });
});

describe("cgbookcase: getAsset", () => {
  it("lists the page's download link and the same link for every size, all requiring the site", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await cgbookcase.getAsset("brick-wall-29", ctx);
    expect([...replay.requested].sort()).toEqual([CATALOGUE, `${SITE}/textures/brick-wall-29`]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({ title: "Brick Wall 29", downloadable: false, resolutions: ["1k", "2k", "3k", "4k"] });
    expect(details!.files).toStrictEqual(
      [1, 2, 3, 4].map((n) => ({
        url: thanks(`BrickWall29_MR_${n}K.zip`, n, "BrickWall29"),
        filename: `BrickWall29_MR_${n}K.zip`,
        format: "zip",
        resolution: `${n}k`,
        group: "archive",
        requiresAuth: true,
      })),
    );
  });

  it("follows the page's own size menu (1K–8K for Manhole Cover 16)", async () => {
    const { ctx } = replayContext({ now: NOW });
    const details = await cgbookcase.getAsset("manhole-cover-16", ctx);
    expect(details!.files.map((f) => [f.resolution, f.url])).toEqual([
      ["1k", thanks("ManholeCover16_1K.zip", 1, "ManholeCover16")],
      ["2k", thanks("ManholeCover16_2K.zip", 2, "ManholeCover16")],
      ["4k", thanks("ManholeCover16_4K.zip", 4, "ManholeCover16")],
      ["6k", thanks("ManholeCover16_6K.zip", 6, "ManholeCover16")],
      ["8k", thanks("ManholeCover16_8K.zip", 8, "ManholeCover16")],
    ]);
  });

  it("answers null for a 404 page or a slug missing from the catalogue", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${SITE}/textures/no-such-texture`, status: 404, body: "not found" });
    replay.add({ url: `${SITE}/textures/not-listed-01`, file: "texture_brick-wall-29_excerpt.html" }, join(FIXTURES, "cgbookcase"));
    expect(await cgbookcase.getAsset("no-such-texture", ctx)).toBeNull();
    expect(await cgbookcase.getAsset("not-listed-01", ctx)).toBeNull();
  });

  it("rejects a page without its download link, naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${SITE}/textures/brick-wall-29`, body: "<html>changed</html>" });
    await expect(cgbookcase.getAsset("brick-wall-29", ctx)).rejects.toThrow(/cgbookcase: texture page has no download link/);
  });
});

describe("cgbookcase: census", () => {
  it("counts every catalogue entry, its categories and the newest one", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const census = await cgbookcase.census(ctx);
    expect(replay.requested).toEqual([CATALOGUE]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toMatchObject({
      total: 7,
      free: 7,
      byType: { texture: 7 },
      byLicense: { "CC0-1.0": 7 },
      categories: { Road: 1, Rock: 1, Walls: 2, "Natural Stone": 1, Bark: 1, "Cutout Objects": 1 },
      addedLast30Days: 0,
      highlights: [{ label: "Newest texture", title: "Manhole Cover 16", url: `${SITE}/textures/manhole-cover-16` }],
      countedAt: NOW.toISOString(),
    });
  });

  it("counts releases of the last 30 days relative to the clock", async () => {
    const { ctx } = replayContext({ now: new Date("2024-10-10T00:00:00Z") });
    const census = await cgbookcase.census(ctx);
    expect(census.addedLast30Days).toBe(1); // Manhole Cover 16 (2024-09-26); Red Rock 01 (2024-09-01) is older
  });
});

describe("cgbookcase: searchUrl", () => {
  it("opens the site's texture list with the search filled in", () => {
    expect(cgbookcase.searchUrl(query("red rock"))).toBe("https://www.cgbookcase.com/textures?search=red%20rock");
    expect(cgbookcase.searchUrl(query(""))).toBe("https://www.cgbookcase.com/textures");
  });
});
