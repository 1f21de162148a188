import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import type { SourceQuery } from "../core/model/source.ts";
import { SourceError } from "../core/model/source-error.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { kenney, listingUrl, parseCards, typeOf } from "../sources/kenney.ts";
import { sourceQuery } from "./helpers/query.ts";
import { FIXTURES, replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/kenney/manifest.json (real kenney.nl pages; listing pages are
// upstream excerpts of 4 cards each, with the real pagination to pages 1–3).

const NOW = new Date("2026-11-22T00:00:00Z");
const LISTING_URLS = ["https://kenney.nl/assets", "https://kenney.nl/assets/page:2", "https://kenney.nl/assets/page:3"];
const SLUGS = [
  "skyboxes-space",
  "tiny-factory",
  "city-kit-industrial",
  "mini-forest",
  "car-kit",
  "holiday-kit",
  "ui-pack",
  "ui-audio",
  "nature-kit",
  "foliage-pack",
  "kenney-fonts",
  "crosshair-pack",
];
const PACK_URLS = SLUGS.map((slug) => `https://kenney.nl/assets/${slug}`);
const CC0 = licenseById("CC0-1.0");

const query = (q: string, types: SourceQuery["types"] = []) => sourceQuery(q, { types });

describe("kenney: metadata", () => {
  it("is an indexed, free, CC0 scrape source of packs with direct downloads", () => {
    expect(kenney).toMatchObject({
      id: "kenney",
      name: "Kenney",
      homepage: "https://kenney.nl",
      mode: "indexed",
      access: "scrape",
      pricing: "free",
      supportsDownload: true,
      unit: "packs",
      license: CC0,
    });
    expect(kenney.key).toBeUndefined();
    expect(kenney).not.toHaveProperty("search");
    expect([...kenney.assetTypes].sort()).toEqual(["audio", "font", "model", "pack", "sprite", "texture", "ui"]);
  });
});

describe("kenney: crawl", () => {
  it("follows the pagination page by page and stops where no next page is linked, then reads every pack page", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const assets = await kenney.crawl(ctx);

    expect(replay.requested.slice(0, 3)).toEqual(LISTING_URLS);
    expect(replay.requested.slice(3).sort()).toEqual([...PACK_URLS].sort());
    expect(assets.map((a) => a.nativeId)).toEqual(SLUGS);
    for (const asset of assets) expect(Asset.parse(asset)).toStrictEqual(asset);
  });

  it("maps a card field by field", async () => {
    const { ctx } = replayContext({ now: NOW });
    const assets = await kenney.crawl(ctx);
    expect(assets.find((a) => a.nativeId === "city-kit-industrial")).toStrictEqual({
      id: "kenney:city-kit-industrial",
      provider: "kenney",
      nativeId: "city-kit-industrial",
      title: "City Kit (Industrial)",
      type: "model",
      tags: ["City", "game assets"], // its pack page is not recorded: the card and the site's tag
      categories: ["3D"],
      url: "https://kenney.nl/assets/city-kit-industrial",
      thumbnailUrl: "https://kenney.nl/media/pages/assets/city-kit-industrial/18dcc5d6ce-1788171818/sample-400x.png",
      author: "Kenney",
      license: CC0,
      price: { free: true },
      formats: ["zip"],
      downloadable: true,
    });
  });

  it("adds what the pack page says: its tags (the pack's contents), description and release date", async () => {
    const { ctx } = replayContext({ now: NOW });
    const assets = await kenney.crawl(ctx);
    expect(assets.find((a) => a.nativeId === "nature-kit")).toStrictEqual({
      id: "kenney:nature-kit",
      provider: "kenney",
      nativeId: "nature-kit",
      title: "Nature Kit",
      description: "Download this package (330 assets) for free, CC0 licensed!",
      type: "model",
      tags: ["nature", "tree", "rock", "foliage", "game assets"],
      categories: ["3D"],
      url: "https://kenney.nl/assets/nature-kit",
      thumbnailUrl: "https://kenney.nl/media/pages/assets/nature-kit/656a90532f-1677698896/sample-400x.png",
      author: "Kenney",
      license: CC0,
      price: { free: true },
      formats: ["zip"],
      downloadable: true,
      createdAt: "2020-04-29",
    });
    // Every pack is tagged as game assets, its page read or not (nature-kit.html's keywords: "Game assets").
    expect(assets.every((a) => a.tags.includes("game assets"))).toBe(true);
  });

  it("fails when no pack page can be read, naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // nature-kit is the one recorded pack page: changed, no pack page is readable.
    replay.add({ url: "https://kenney.nl/assets/nature-kit", body: "<html>changed</html>" });
    await expect(kenney.crawl(ctx)).rejects.toThrow(/^kenney: no item page could be read/);
  });

  it("types each pack by its category (and UI / font packs inside 2D by name)", async () => {
    const { ctx } = replayContext({ now: NOW });
    const types = Object.fromEntries((await kenney.crawl(ctx)).map((a) => [a.nativeId, a.type]));
    expect(types).toEqual({
      "skyboxes-space": "texture", // category Textures
      "tiny-factory": "sprite", // 2D
      "city-kit-industrial": "model", // 3D
      "mini-forest": "model",
      "car-kit": "model",
      "holiday-kit": "model",
      "ui-pack": "ui", // 2D, series "UI Pack"
      "ui-audio": "audio", // category Audio wins over the name
      "nature-kit": "model",
      "foliage-pack": "sprite",
      "kenney-fonts": "font", // 2D, named "… Fonts"
      "crosshair-pack": "sprite",
    });
    expect(typeOf("Fonts")).toBe("font");
    expect(typeOf("UI")).toBe("ui");
    expect(typeOf("Something New")).toBe("pack");
    expect(typeOf(undefined)).toBe("pack");
  });

  it("keeps the series link as a tag and decodes it (UI%20Pack)", async () => {
    const { ctx } = replayContext({ now: NOW });
    const ui = (await kenney.crawl(ctx)).find((a) => a.nativeId === "ui-pack")!;
    expect(ui.tags).toEqual(["UI Pack", "game assets"]);
    expect(ui.categories).toEqual(["2D"]);
  });

  it("rejects a changed listing with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: "https://kenney.nl/assets", body: "<html>changed</html>" });
    await expect(kenney.crawl(ctx)).rejects.toThrow(/^kenney: /);
  });

  it("builds the listing URLs as the site does", () => {
    expect(listingUrl(1)).toBe("https://kenney.nl/assets");
    expect(listingUrl(7)).toBe("https://kenney.nl/assets/page:7");
  });
});

describe("kenney: the site's search page", () => {
  it("uses the same cards, so the parser reads it too", () => {
    const html = readFileSync(join(FIXTURES, "kenney", "search_tree_excerpt.html"), "utf8");
    expect(parseCards(html)).toEqual([
      {
        slug: "foliage-pack",
        title: "Foliage Pack",
        url: "https://kenney.nl/assets/foliage-pack",
        thumbnailUrl: "https://kenney.nl/media/pages/assets/foliage-pack/2041042bf7-1677693469/sample-400x.png",
        category: "2D",
      },
      {
        slug: "holiday-kit",
        title: "Holiday Kit",
        url: "https://kenney.nl/assets/holiday-kit",
        thumbnailUrl: "https://kenney.nl/media/pages/assets/holiday-kit/2e8f59c1ab-1733923964/sample-400x.png",
        category: "3D",
      },
      {
        slug: "nature-kit",
        title: "Nature Kit",
        url: "https://kenney.nl/assets/nature-kit",
        thumbnailUrl: "https://kenney.nl/media/pages/assets/nature-kit/656a90532f-1677698896/sample-400x.png",
        category: "3D",
      },
    ]);
  });
});

describe("kenney: getAsset", () => {
  it("reads the pack page: tags, category, licence, release date and the direct zip", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await kenney.getAsset("nature-kit", ctx);

    expect(replay.requested).toEqual(["https://kenney.nl/assets/nature-kit"]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toStrictEqual({
      id: "kenney:nature-kit",
      provider: "kenney",
      nativeId: "nature-kit",
      title: "Nature Kit",
      description: "Download this package (330 assets) for free, CC0 licensed!",
      type: "model",
      tags: ["nature", "tree", "rock", "foliage", "game assets"],
      categories: ["3D"],
      url: "https://kenney.nl/assets/nature-kit",
      thumbnailUrl: "https://kenney.nl/media/pages/assets/nature-kit/656a90532f-1677698896/sample.png",
      author: "Kenney",
      license: CC0,
      price: { free: true },
      formats: ["zip"],
      downloadable: true,
      createdAt: "2020-04-29",
      files: [
        {
          url: "https://kenney.nl/media/pages/assets/nature-kit/37ac38a37b-1677698939/kenney_nature-kit.zip",
          filename: "kenney_nature-kit.zip",
          format: "zip",
          group: "archive",
        },
      ],
    });
    expect(details!.files.some((f) => f.requiresAuth)).toBe(false);
  });

  it("answers null for an unknown pack (404) and for a slug that is no slug, without asking", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: "https://kenney.nl/assets/no-such-pack", status: 404, body: "<html>Not found</html>" });
    expect(await kenney.getAsset("no-such-pack", ctx)).toBeNull();
    expect(await kenney.getAsset("../etc", ctx)).toBeNull();
    expect(replay.requested).toEqual(["https://kenney.nl/assets/no-such-pack"]);
  });

  it("rejects a changed pack page with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: "https://kenney.nl/assets/nature-kit", body: "<html>changed</html>" });
    await expect(kenney.getAsset("nature-kit", ctx)).rejects.toThrow(/^kenney: /);
  });

  it("lets other upstream failures propagate", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: "https://kenney.nl/assets/nature-kit", status: 500, body: "oops" });
    const err = await kenney.getAsset("nature-kit", ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect(err).toMatchObject({ source: "kenney", kind: "http", status: 500 });
  });
});

describe("kenney: census", () => {
  it("counts every pack card of the listing pages", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const census = await kenney.census(ctx);

    expect(replay.requested).toEqual(LISTING_URLS);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toStrictEqual({
      id: "kenney",
      name: "Kenney",
      homepage: "https://kenney.nl",
      total: 12,
      free: 12,
      byType: { texture: 1, sprite: 3, model: 5, ui: 1, audio: 1, font: 1 },
      byLicense: { "CC0-1.0": 12 },
      categories: { Textures: 1, "2D": 5, "3D": 5, Audio: 1 },
      unit: "packs",
      highlights: [{ label: "Newest pack", title: "Skyboxes Space", url: "https://kenney.nl/assets/skyboxes-space" }],
      method: "kenney.nl/assets listing: every pack card of its 3 pages counted (all packs are free and CC0)",
      countedAt: "2026-11-22T00:00:00.000Z",
    });
  });

  it("shares the listing pages with crawl through the client's cache", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    await kenney.crawl(ctx);
    const crawled = replay.requested.length;
    await kenney.census(ctx);
    expect(replay.requested).toHaveLength(crawled);
  });
});

describe("kenney: searchUrl", () => {
  it("is the site's own search, narrowed to one category when the types name one", () => {
    expect(kenney.searchUrl(query("tree"))).toBe("https://kenney.nl/assets?search=tree");
    expect(kenney.searchUrl(query("city kit", ["model"]))).toBe("https://kenney.nl/assets?search=city%20kit&category=3D");
    expect(kenney.searchUrl(query("ui", ["ui", "sprite"]))).toBe("https://kenney.nl/assets?search=ui&category=2D");
    expect(kenney.searchUrl(query("", ["audio"]))).toBe("https://kenney.nl/assets?category=Audio");
    expect(kenney.searchUrl(query("x", ["model", "audio"]))).toBe("https://kenney.nl/assets?search=x");
    expect(kenney.searchUrl(query(""))).toBe("https://kenney.nl/assets");
  });
});
