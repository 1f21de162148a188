import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SourceQuery } from "../core/model/source.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { itchio, typeFromTags } from "../sources/itchio.ts";
import { parseSize } from "../sources/kit/files.ts";
import { parsePrice } from "../sources/kit/price.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { FIXTURES, replayContext } from "./helpers/replay.ts";

const NOW = new Date("2026-11-22T00:00:00Z");
const SEARCH = "https://itch.io/search?q=low+poly+tree&type=games&classification=assets";
const BROWSE = "https://itch.io/game-assets/free/tag-3d?format=json&page=1";
const KAYKIT = "https://kaylousberg.itch.io/kaykit-forest";
const TREE = "https://example-231791.itch.io/low-poly-tree";

const query = (over: Partial<SourceQuery> = {}) => sourceQuery("low poly tree", { limit: 5, ...over });

describe("itchio metadata", () => {
  it("is a live, scraped, freemium source of packs without direct downloads", () => {
    expect(itchio.id).toBe("itchio");
    expect(itchio.mode).toBe("live");
    expect(itchio.access).toBe("scrape");
    expect(itchio.pricing).toBe("freemium");
    expect(itchio.supportsDownload).toBe(false);
    expect(itchio.unit).toBe("packs");
    expect(itchio.key).toBeUndefined();
    expect(itchio.assetTypes).toEqual(["pack", "model", "sprite", "ui", "audio", "font"]);
    expect(itchio).not.toHaveProperty("crawl");
  });
});

describe("itchio searchUrl", () => {
  it("searches game assets only, and browses the listing with its filters when there is no text", () => {
    expect(itchio.searchUrl(query())).toBe(SEARCH);
    expect(itchio.searchUrl(query({ q: "sci-fi crate & barrel" }))).toBe("https://itch.io/search?q=sci-fi+crate+%26+barrel&type=games&classification=assets");
    expect(itchio.searchUrl(query({ q: "", free: true, types: ["model"] }))).toBe("https://itch.io/game-assets/free/tag-3d");
    expect(itchio.searchUrl(query({ q: " ", types: ["sprite"] }))).toBe("https://itch.io/game-assets/tag-2d");
    expect(itchio.searchUrl(query({ q: "" }))).toBe("https://itch.io/game-assets");
  });
});

describe("itchio search", () => {
  it("asks the assets-only search and maps the cards", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await itchio.search(query(), ctx);
    expect(replay.requested).toEqual([SEARCH]);
    expect(result.assets.map((a) => a.nativeId)).toEqual([
      "example-231791~low-poly-tree",
      "brokenvector~low-poly-tree-pack",
      "mark-auman~low-poly-trees-asset-pack",
      "lowpolyworld~low-poly",
      "indieriffic~low-poly-tree-pack",
    ]);
    for (const a of result.assets) Asset.parse(a);
    // "1000+ projects match" is a lower bound, not a total.
    expect(result.total).toBeUndefined();
    expect(result.assets[0]).toEqual({
      id: "itchio:example-231791~low-poly-tree",
      provider: "itchio",
      nativeId: "example-231791~low-poly-tree",
      title: "Low Poly tree",
      description: "Beautiful low poly tree and of high quality",
      type: "pack",
      tags: [],
      url: "https://example-231791.itch.io/low-poly-tree",
      thumbnailUrl: "https://img.itch.zone/aW1hZ2UvOTE2MjkvNDMwMTk1LnBuZw==/315x250%23c/Dh6Ujz.png",
      author: "example",
      price: { free: false, amount: 1, currency: "USD" },
      downloadable: false,
    });
    expect(result.assets[1]).toMatchObject({ title: "Low Poly Tree Pack", author: "Broken Vector", price: { free: true } });
    expect(result.assets[1]!.license).toBeUndefined();
  });

  it("respects offset and limit within the page, and keeps only free listings when asked", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const page = await itchio.search(query({ offset: 2, limit: 2 }), ctx);
    expect(page.assets.map((a) => a.title)).toEqual(["Low-Poly Trees Asset Pack", "Low Poly Tree House"]);
    const free = await itchio.search(query({ free: true, limit: 4 }), ctx);
    expect(free.assets.map((a) => a.title)).toEqual([
      "Low Poly Tree Pack",
      "Low-Poly Trees Asset Pack",
      "Low Poly Tree Pack Smooth",
      "Low Poly Tree Pack Flat",
    ]);
    expect(free.total).toBeUndefined();
    // The second search was answered by the client's cache: one upstream request in all.
    expect(replay.requested).toEqual([SEARCH]);
  });

  it("learns the page size from page 1 and reads the page that holds the offset", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // STAND-IN for page 2 (no recording of it exists): the recorded page 1 served again, to check the URL and the slicing.
    replay.add({ url: `${SEARCH}&page=2`, file: "search_low_poly_tree_trimmed.html" }, join(FIXTURES, "itchio"));
    const result = await itchio.search(query({ offset: 7, limit: 2 }), ctx);
    expect(replay.requested).toEqual([SEARCH, `${SEARCH}&page=2`]);
    // The recorded page has 6 cards: offset 7 is the second card of page 2.
    expect(result.assets.map((a) => a.title)).toEqual(["Low Poly Tree Pack", "Low-Poly Trees Asset Pack"]);
  });

  it("keeps page 1's cards when the next search page fails (page 2 is not recorded)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // The default limit 24: the recorded page has 6 cards, so the source reads on to page 2, which fails.
    const result = await itchio.search(query({ limit: 24 }), ctx);
    expect(replay.requested).toEqual([SEARCH, `${SEARCH}&page=2`]);
    expect(result.assets.map((a) => a.nativeId)).toEqual([
      "example-231791~low-poly-tree",
      "brokenvector~low-poly-tree-pack",
      "mark-auman~low-poly-trees-asset-pack",
      "lowpolyworld~low-poly",
      "indieriffic~low-poly-tree-pack",
      "indieriffic~low-poly-tree-pack-flat",
    ]);
    // The page that holds the offset failing still fails the search (offset 7 is on page 2).
    const other = replayContext({ now: NOW });
    await expect(itchio.search(query({ offset: 7, limit: 2 }), other.ctx)).rejects.toThrow(`${SEARCH}&page=2`);
    // And so does page 1 failing.
    const third = replayContext({ now: NOW });
    third.replay.add({ url: SEARCH, status: 500, body: "oops" });
    await expect(itchio.search(query({ limit: 24 }), third.ctx)).rejects.toThrow();
  });

  it("keeps the browse listing's page 1 when its page 2 fails (not recorded)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // limit 6 with Cozy Tunes (an audio pack) dropped from page 1: the source reads on to page 2, which fails.
    const result = await itchio.search(query({ q: "", free: true, types: ["model"], limit: 6 }), ctx);
    expect(replay.requested).toEqual([BROWSE, "https://itch.io/game-assets/free/tag-3d?format=json&page=2"]);
    expect(result.assets.map((a) => a.nativeId)).toEqual([
      "quaternius~universal-animation-library",
      "kaylousberg~kaykit-adventurers",
      "quaternius~universal-animation-library-2",
      "pizzadoggy~retro-tree-pack",
      "quaternius~stylized-nature-megakit",
    ]);
  });

  it("browses the free 3D listing (JSON) for an empty query with free and type model", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await itchio.search(query({ q: "", free: true, types: ["model"], limit: 5 }), ctx);
    expect(replay.requested).toEqual([BROWSE]);
    expect(result.assets).toHaveLength(5);
    for (const a of result.assets) Asset.parse(a);
    expect(result.assets[0]).toEqual({
      id: "itchio:quaternius~universal-animation-library",
      provider: "itchio",
      nativeId: "quaternius~universal-animation-library",
      title: "Universal Animation Library",
      description: "More than 120 animations, ready to retarget in any engine",
      type: "model",
      tags: [],
      url: "https://quaternius.itch.io/universal-animation-library",
      thumbnailUrl: "https://img.itch.zone/aW1nLzI3OTEzMTMwLnBuZw==/315x250%23c/gcpRpe.png",
      author: "Quaternius",
      price: { free: true },
      downloadable: false,
    });
  });

  it("drops what itch.io itself calls an audio pack from a model search, and reads on to the next page", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const page2 = "https://itch.io/game-assets/free/tag-3d?format=json&page=2";
    // STAND-IN for page 2 (not recorded): the recorded page 1 served again.
    replay.add({ url: page2, file: "browse_free_3d.json" }, join(FIXTURES, "itchio"));
    // "Pay 0€ or more for this audio pack" (at -100%): Cozy Tunes is the 6th card of page 1.
    const result = await itchio.search(query({ q: "", free: true, types: ["model"], limit: 6 }), ctx);
    expect(replay.requested).toEqual([BROWSE, page2]);
    expect(result.assets.map((a) => a.title)).not.toContain("Cozy Tunes");
    expect(result.assets.map((a) => a.nativeId)).toEqual([
      "quaternius~universal-animation-library",
      "kaylousberg~kaykit-adventurers",
      "quaternius~universal-animation-library-2",
      "pizzadoggy~retro-tree-pack",
      "quaternius~stylized-nature-megakit",
      "quaternius~universal-animation-library",
    ]);
  });

  it("types a listing by itch.io's own word in the price tooltip when no tag was asked", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const free = "https://itch.io/game-assets/free?format=json&page=1";
    // STAND-IN (not recorded): the recorded free 3D listing served for the untagged free listing.
    replay.add({ url: free, file: "browse_free_3d.json" }, join(FIXTURES, "itchio"));
    const result = await itchio.search(query({ q: "", free: true, limit: 6 }), ctx);
    expect(replay.requested).toEqual([free]);
    expect(result.assets.map((a) => a.type)).toEqual(["pack", "pack", "pack", "pack", "pack", "audio"]);
    expect(result.assets[5]).toMatchObject({ title: "Cozy Tunes", price: { free: true }, author: "🍕 Pizza  Doggy" });
  });

  it("pages the browse listing by its 36 cards", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const page2 = "https://itch.io/game-assets/free/tag-3d?format=json&page=2";
    // STAND-IN for page 2 (not recorded): the recorded page 1 served again, to check the URL and the slicing.
    replay.add({ url: page2, file: "browse_free_3d.json" }, join(FIXTURES, "itchio"));
    const result = await itchio.search(query({ q: "", free: true, types: ["model"], offset: 37, limit: 2 }), ctx);
    expect(replay.requested).toEqual([page2]);
    expect(result.assets.map((a) => a.title)).toEqual(["KayKit - Character Pack : Adventurers", "Universal Animation Library 2"]);
  });

  it("asks nothing for types itch.io does not carry", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await itchio.search(query({ types: ["hdri"] }), ctx);
    expect(result.assets).toEqual([]);
    expect(replay.requested).toEqual([]);
  });

  it("rejects a changed search page or browse answer with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: SEARCH, body: "<html>changed</html>", headers: { "content-type": "text/html" } });
    await expect(itchio.search(query(), ctx)).rejects.toThrow(/^itchio: /);
    replay.add({ url: BROWSE, body: '{"html":"x"}', headers: { "content-type": "application/json" } });
    await expect(itchio.search(query({ q: "", free: true, types: ["model"] }), ctx)).rejects.toThrow(/^itchio: .*not \{ num_items, content \}/);
  });
});

describe("itchio getAsset", () => {
  it("maps a free pack with its CC0 licence and one requiresAuth file per upload", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await itchio.getAsset("kaylousberg~kaykit-forest", ctx);
    expect([...replay.requested].sort()).toEqual([KAYKIT, `${KAYKIT}/data.json`].sort());
    AssetDetails.parse(details);
    expect(details).toMatchObject({
      id: "itchio:kaylousberg~kaykit-forest",
      title: "KayKit - Forest Nature Pack",
      description: "3D stylised low poly trees, rocks, grass, and more.",
      type: "model",
      url: KAYKIT,
      thumbnailUrl: "https://img.itch.zone/aW1nLzI4MzY3MzUzLnBuZw==/315x250%23c/FGN5Di.png",
      author: "Kay Lousberg",
      price: { free: true },
      downloadable: false,
    });
    expect(details!.license).toEqual({
      name: "CC0 1.0 Universal (public domain dedication)",
      url: "https://creativecommons.org/publicdomain/zero/1.0/",
      commercialUse: true,
      attributionRequired: false,
      spdx: "CC0-1.0",
    });
    expect(details!.tags).toContain("low-poly");
    expect(details!.formats).toBeUndefined();
    expect(details!.files).toEqual([
      { url: KAYKIT, filename: "Free", format: "unknown", sizeBytes: 6_100_000, requiresAuth: true },
      { url: KAYKIT, filename: "Extra", format: "unknown", sizeBytes: 81_000_000, requiresAuth: true },
      { url: KAYKIT, filename: "Source Files", format: "unknown", sizeBytes: 94_000_000, requiresAuth: true },
    ]);
  });

  it("maps a paid asset without a licence row", async () => {
    const { ctx } = replayContext({ now: NOW });
    const details = await itchio.getAsset("example-231791~low-poly-tree", ctx);
    AssetDetails.parse(details);
    expect(details!.price).toEqual({ free: false, amount: 1, currency: "USD" });
    expect(details!.license).toBeUndefined();
    expect(details!.author).toBe("example");
    expect(details!.formats).toEqual(["zip"]);
    expect(details!.files).toEqual([{ url: TREE, filename: "Low Poly Tree.zip", format: "zip", sizeBytes: 577_000, group: "archive", requiresAuth: true }]);
  });

  it("answers null for a 404 and for an id that is not <author>~<slug>, without asking for the latter", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const gone = "https://someone.itch.io/gone";
    replay.add({ url: `${gone}/data.json`, status: 404, body: "{}" });
    replay.add({ url: gone, status: 404, body: "not found" });
    expect(await itchio.getAsset("someone~gone", ctx)).toBeNull();
    expect(await itchio.getAsset("../etc~passwd", ctx)).toBeNull();
    expect(await itchio.getAsset("no-tilde", ctx)).toBeNull();
    expect(replay.requested.every((u) => u.startsWith(gone))).toBe(true);
  });

  it("rejects a changed page or data.json with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: KAYKIT, body: "<html>changed</html>" });
    await expect(itchio.getAsset("kaylousberg~kaykit-forest", ctx)).rejects.toThrow(/^itchio: /);
    const other = replayContext({ now: NOW });
    other.replay.add({ url: `${TREE}/data.json`, body: '{"errors":["invalid game"]}' });
    await expect(itchio.getAsset("example-231791~low-poly-tree", other.ctx)).rejects.toThrow(/^itchio: .*data\.json/);
  });
});

describe("itchio census", () => {
  it("counts the first page of the free 3D listing as a lower bound", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const census = SourceCensus.parse(await itchio.census(ctx));
    expect(replay.requested).toEqual([BROWSE]);
    expect(census).toMatchObject({
      id: "itchio",
      total: 36,
      atLeast: true,
      free: 36,
      byType: { model: 36 },
      unit: "packs",
      countedAt: "2026-11-22T00:00:00.000Z",
    });
    expect(census.highlights?.[0]).toEqual({
      label: "Popular free 3D asset pack",
      title: "Universal Animation Library",
      url: "https://quaternius.itch.io/universal-animation-library",
    });
    expect(census.method).toMatch(/lower bound/);
  });
});

describe("itchio helpers", () => {
  it("reads prices, sizes and kinds as itch.io writes them", () => {
    expect(parsePrice("$1")).toEqual({ free: false, amount: 1, currency: "USD" });
    expect(parsePrice("$9.99 USD")).toEqual({ free: false, amount: 9.99, currency: "USD" });
    expect(parsePrice("0€")).toEqual({ free: true });
    expect(parsePrice("£2,50")).toEqual({ free: false, amount: 2.5, currency: "GBP" });
    expect(parsePrice("free")).toBeUndefined();
    expect(parseSize("6.1 MB")).toBe(6_100_000);
    expect(parseSize("577 kB")).toBe(577_000);
    expect(parseSize("1.2 GB")).toBe(1_200_000_000);
    expect(parseSize("soon")).toBeUndefined();
    expect(typeFromTags(["3d", "asset-pack"])).toBe("model");
    expect(typeFromTags(["2d", "gui"])).toBe("ui");
    expect(typeFromTags(["music", "sound-effects"])).toBe("audio");
    expect(typeFromTags(["3d", "pixel-art"])).toBe("pack");
    expect(typeFromTags(["cozy"])).toBe("pack");
  });
});

describe("itchio filters", () => {
  it("passes no filter upstream: the asked URLs stay the same", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    await itchio.search(query({ filters: { author: "brokenvector", license: ["cc0"] }, sort: "newest" }), ctx);
    expect(replay.requested).toEqual([SEARCH]);
  });

  it("declares the author as listed, and the cards of the search page and the browse listing carry it", async () => {
    expect(itchio.filtering).toEqual({ upstream: [], listed: ["author"] });
    const { ctx } = replayContext({ now: NOW });
    const assets = [...(await itchio.search(query(), ctx)).assets, ...(await itchio.search(query({ q: "", types: ["model"], free: true }), ctx)).assets];
    expectListedExactly(assets, ["author"]);
  });
});
