import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SourceQuery } from "../core/model/source.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { licenseOf, opengameart, postDate } from "../sources/opengameart.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { FIXTURES, replayContext } from "./helpers/replay.ts";

const NOW = new Date("2026-11-22T00:00:00Z");
const BASE = "https://opengameart.org/art-search-advanced";
const TREE_3D = `${BASE}?keys=tree&field_art_type_tid%5B0%5D=10`;
const NATURE_KIT = "https://opengameart.org/content/nature-kit";
const CENSUS = (tid: number) => `${BASE}?keys=&field_art_type_tid%5B0%5D=${tid}`;

const query = (over: Partial<SourceQuery> = {}) => sourceQuery("tree", { types: ["model"], ...over });

describe("opengameart metadata", () => {
  it("is a live, scraped, free source with direct downloads", () => {
    expect(opengameart.id).toBe("opengameart");
    expect(opengameart.mode).toBe("live");
    expect(opengameart.access).toBe("scrape");
    expect(opengameart.pricing).toBe("free");
    expect(opengameart.supportsDownload).toBe(true);
    expect(opengameart.unit).toBe("assets");
    expect(opengameart.license).toBeUndefined();
    expect(opengameart.key).toBeUndefined();
    expect(opengameart.assetTypes).toEqual(["model", "sprite", "texture", "audio", "other"]);
    expect(opengameart).not.toHaveProperty("crawl");
  });
});

describe("opengameart searchUrl", () => {
  it("puts the text and the art types of the asked types in the advanced search", () => {
    expect(opengameart.searchUrl(query())).toBe(TREE_3D);
    expect(opengameart.searchUrl(query({ q: "red brick", types: ["texture", "material"], free: true }))).toBe(
      `${BASE}?keys=red+brick&field_art_type_tid%5B0%5D=14`,
    );
    expect(opengameart.searchUrl(query({ q: "jump", types: ["audio"] }))).toBe(`${BASE}?keys=jump&field_art_type_tid%5B0%5D=12&field_art_type_tid%5B1%5D=13`);
    expect(opengameart.searchUrl(query({ q: "knight", types: ["sprite", "other"] }))).toBe(
      `${BASE}?keys=knight&field_art_type_tid%5B0%5D=9&field_art_type_tid%5B1%5D=7273&field_art_type_tid%5B2%5D=11`,
    );
    expect(opengameart.searchUrl(query({ q: "a&b", types: [] }))).toBe(`${BASE}?keys=a%26b`);
  });
});

describe("opengameart search", () => {
  it("asks the advanced search with the 3D art type and maps the 24 cards and the total", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await opengameart.search(query(), ctx);
    expect(replay.requested).toEqual([TREE_3D]);
    expect(result.total).toBe(182);
    expect(result.assets).toHaveLength(24);
    for (const a of result.assets) Asset.parse(a);
    expect(result.assets[0]).toEqual({
      id: "opengameart:palm-tree-v2",
      provider: "opengameart",
      nativeId: "palm-tree-v2",
      title: "Palm tree v2",
      type: "model",
      tags: [],
      url: "https://opengameart.org/content/palm-tree-v2",
      thumbnailUrl: "https://opengameart.org/sites/default/files/styles/thumbnail/public/preview_52.jpg",
      price: { free: true },
      downloadable: true,
    });
    expect(result.assets[23]!.nativeId).toBe("realistic-tree-16-dracaena");
    // The sidebar's forum list is another Drupal view with `.views-row`s: none of it leaks in.
    expect(result.assets.some((a) => /forumtopic/.test(a.url))).toBe(false);
  });

  it("slices by offset and limit inside the page", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await opengameart.search(query({ offset: 1, limit: 3 }), ctx);
    expect(replay.requested).toEqual([TREE_3D]);
    expect(result.assets.map((a) => a.nativeId)).toEqual(["tree-5", "free-realistic-tree-9-rainbow-tree", "tree-18"]);
  });

  it("maps the offset to Drupal's 0-based pager and reads on to the next page", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const dir = join(FIXTURES, "opengameart");
    // STAND-INS (pages 2 and 3 are not recorded): the recorded page 1 served again, to check URLs and slicing.
    replay.add({ url: `${TREE_3D}&page=1`, file: "search_tree_3d.html" }, dir);
    replay.add({ url: `${TREE_3D}&page=2`, file: "search_tree_3d.html" }, dir);
    const result = await opengameart.search(query({ offset: 46, limit: 4 }), ctx);
    expect(replay.requested).toEqual([`${TREE_3D}&page=1`, `${TREE_3D}&page=2`]);
    expect(result.assets.map((a) => a.nativeId)).toEqual(["dead-tree-0", "realistic-tree-16-dracaena", "palm-tree-v2", "tree-5"]);
  });

  it("keeps page 1's cards when the next page fails (page 2, &page=1, is not recorded)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // 30 from offset 0: the 24 cards of page 1 (of 182), then the next page, which fails.
    const result = await opengameart.search(query({ limit: 30 }), ctx);
    expect(replay.requested).toEqual([TREE_3D, `${TREE_3D}&page=1`]);
    expect(result.assets).toHaveLength(24);
    expect(result.assets[23]!.nativeId).toBe("realistic-tree-16-dracaena");
    expect(result.total).toBe(182);
    // The window's first page failing still fails the search (offset 24 starts on the unrecorded page).
    const other = replayContext({ now: NOW });
    await expect(opengameart.search(query({ offset: 24, limit: 4 }), other.ctx)).rejects.toThrow(`${TREE_3D}&page=1`);
  });

  it("types cards as other when the asked art types do not agree on one type", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // STAND-IN: the recorded 3D search served for the same text searched over every art type.
    replay.add({ url: `${BASE}?keys=tree`, file: "search_tree_3d.html" }, join(FIXTURES, "opengameart"));
    const result = await opengameart.search(query({ types: [], limit: 2 }), ctx);
    expect(replay.requested).toEqual([`${BASE}?keys=tree`]);
    expect(result.assets.map((a) => a.type)).toEqual(["other", "other"]);
  });

  it("asks nothing for types the site does not carry", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    expect(await opengameart.search(query({ types: ["hdri", "font"] }), ctx)).toMatchObject({ assets: [], total: 0 });
    expect(replay.requested).toEqual([]);
  });

  it("rejects a changed page with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: TREE_3D, body: "<html>changed</html>" });
    await expect(opengameart.search(query(), ctx)).rejects.toThrow(/^opengameart: /);
  });
});

describe("opengameart getAsset", () => {
  it("maps the content page: author, type, tags, CC0, date and the direct zip", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await opengameart.getAsset("nature-kit", ctx);
    expect(replay.requested).toEqual([NATURE_KIT]);
    AssetDetails.parse(details);
    expect(details).toMatchObject({
      id: "opengameart:nature-kit",
      provider: "opengameart",
      nativeId: "nature-kit",
      title: "Nature Kit",
      type: "model",
      categories: ["3D Art"],
      url: NATURE_KIT,
      thumbnailUrl: "https://opengameart.org/sites/default/files/Preview_320.png",
      author: "Kenney",
      price: { free: true },
      formats: ["zip"],
      downloadable: true,
      createdAt: "2018-04-12",
    });
    expect(details!.license).toEqual({
      name: "CC0 1.0 Universal (public domain dedication)",
      url: "https://creativecommons.org/publicdomain/zero/1.0/",
      commercialUse: true,
      attributionRequired: false,
      spdx: "CC0-1.0",
    });
    expect(details!.tags).toEqual([
      "plant",
      "trees",
      "nature",
      "tree",
      "foliage",
      "stone",
      "Rock",
      "Terrain",
      "waterfall",
      "tent",
      "canoe",
      "paddle",
      "fence",
      "statue",
      "palm",
    ]);
    expect(details!.description).toMatch(/^This package includes over 330 nature themed objects/);
    expect(details!.description).toContain('Copyright/attribution notice: Credit "Kenney.nl" or "www.kenney.nl", this is not mandatory.');
    expect(details!.files).toEqual([
      {
        url: "https://opengameart.org/sites/default/files/Nature%20Kit%20%282.1%29.zip",
        filename: "Nature Kit (2.1).zip",
        format: "zip",
        sizeBytes: 10537521,
        group: "archive",
        requiresAuth: false,
      },
    ]);
  });

  it("answers null for a 404 and for a slug that is not one, without asking for the latter", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: "https://opengameart.org/content/gone", status: 404, body: "<html>Page not found</html>" });
    expect(await opengameart.getAsset("gone", ctx)).toBeNull();
    expect(await opengameart.getAsset("../user/1", ctx)).toBeNull();
    expect(replay.requested).toEqual(["https://opengameart.org/content/gone"]);
  });

  it("rejects a changed page with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: NATURE_KIT, body: "<html>changed</html>" });
    await expect(opengameart.getAsset("nature-kit", ctx)).rejects.toThrow(/^opengameart: /);
  });
});

describe("opengameart licences", () => {
  it("normalises the names the site shows, keeping OGA-BY 4.0 and the LGPL apart from their neighbours", () => {
    expect(licenseOf("CC-BY 3.0", "http://creativecommons.org/licenses/by/3.0/")?.spdx).toBe("CC-BY-3.0");
    expect(licenseOf("CC-BY-SA 4.0", undefined)?.spdx).toBe("CC-BY-SA-4.0");
    expect(licenseOf("OGA-BY 3.0", undefined)).toMatchObject({ name: "OpenGameArt Attribution 3.0 (OGA-BY 3.0)", attributionRequired: true });
    expect(licenseOf("OGA-BY 3.0", undefined)?.spdx).toBeUndefined();
    expect(licenseOf("GPL 2.0", undefined)?.spdx).toBe("GPL-2.0-only");
    expect(licenseOf("OGA-BY 4.0", "https://static.opengameart.org/OGA-BY-4.0.txt")).toEqual({
      name: "OpenGameArt Attribution 4.0 (OGA-BY 4.0)",
      url: "https://static.opengameart.org/OGA-BY-4.0.txt",
      commercialUse: true,
      attributionRequired: true,
    });
    expect(licenseOf("LGPL 3.0", "http://www.gnu.org/licenses/lgpl-3.0.html")?.spdx).toBe("LGPL-3.0-only");
    expect(postDate("Thursday, April 12, 2018 - 05:17")).toBe("2018-04-12");
    expect(postDate("yesterday")).toBeUndefined();
  });

  it("picks the most permissive of several licences and names the others in the description", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const url = "https://opengameart.org/content/two-licences";
    // SYNTHETIC page made in this test from the recorded one: the licence block carries two licences
    // (GPL first, as OpenGameArt lists them in term order), to exercise the choice. Not a recording.
    const { readFileSync } = await import("node:fs");
    const real = readFileSync(join(FIXTURES, "opengameart", "nature_kit.html"), "utf8");
    const cc0 = "<div class='license-name'>CC0</div>";
    const swapped = real.replace(
      /<div class="field-item even"><div class='license-icon'>.*?<\/div><\/a><\/div><\/div>/,
      `<div class="field-item even"><div class='license-icon'><a href='http://www.gnu.org/licenses/gpl-3.0.html'><div class='license-name'>GPL 3.0</div></a></div></div>` +
        `<div class="field-item odd"><div class='license-icon'><a href='http://creativecommons.org/licenses/by/3.0/'><div class='license-name'>CC-BY 3.0</div></a></div></div>`,
    );
    expect(real).toContain(cc0);
    expect(swapped).not.toContain(cc0);
    replay.add({ url, body: swapped });
    const details = await opengameart.getAsset("two-licences", ctx);
    expect(details!.license?.spdx).toBe("CC-BY-3.0");
    expect(details!.description).toMatch(/Also available under: GPL 3\.0\.$/);
  });
});

describe("opengameart census", () => {
  it("counts each art type from its 'Displaying … of N' and marks failed types as a lower bound", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const census = SourceCensus.parse(await opengameart.census(ctx));
    expect([...replay.requested].sort()).toEqual([9, 10, 7273, 14, 12, 13, 11].map(CENSUS).sort());
    // 2D, 3D and Texture are recorded (excerpts); Concept Art, Music, Sound Effect and Document are not.
    expect(census).toMatchObject({
      id: "opengameart",
      name: "OpenGameArt.org",
      homepage: "https://opengameart.org",
      total: 16293 + 4948 + 2237,
      atLeast: true,
      free: 16293 + 4948 + 2237,
      byType: { sprite: 16293, model: 4948, texture: 2237 },
      categories: { "2D Art": 16293, "3D Art": 4948, Texture: 2237 },
      unit: "assets",
      countedAt: "2026-11-22T00:00:00.000Z",
    });
    expect(census.method).toContain("Not counted this time (request failed): Concept Art, Music, Sound Effect, Document");
  });

  it("is exact when every type answers, and fails when a page changed", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const dir = join(FIXTURES, "opengameart");
    // STAND-INS (not recorded): the 3D excerpt served for the four unrecorded art types.
    for (const tid of [7273, 12, 13, 11]) replay.add({ url: CENSUS(tid), file: "census_3d_excerpt.html" }, dir);
    const census = SourceCensus.parse(await opengameart.census(ctx));
    expect(census.atLeast).toBeUndefined();
    expect(census.total).toBe(16293 + 4948 * 5 + 2237);
    expect(census.byType).toEqual({ sprite: 16293, model: 4948, texture: 2237, audio: 4948 * 2, other: 4948 * 2 });

    const broken = replayContext({ now: NOW });
    broken.replay.add({ url: CENSUS(10), body: "<html>changed</html>" });
    await expect(opengameart.census(broken.ctx)).rejects.toThrow(/^opengameart: /);
  });
});

describe("opengameart filters", () => {
  const LICENSED = `${TREE_3D}&field_art_licenses_tid%5B0%5D=4&field_art_licenses_tid%5B1%5D=10310&field_art_licenses_tid%5B2%5D=31772&sort_by=created&sort_order=DESC`;

  it("asks the search page's licence terms and post-date order", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // STAND-IN: the recorded body of the unfiltered "tree" 3D search, served for the filtered URL.
    replay.add(
      { method: "GET", url: LICENSED, file: "search_tree_3d.html", status: 200, headers: { "content-type": "text/html; charset=utf-8" } },
      join(FIXTURES, "opengameart"),
    );
    const res = await opengameart.search(query({ filters: { license: ["cc0-1.0", "oga-by"] }, sort: "newest" }), ctx);
    expect(replay.requested).toEqual([LICENSED]);
    expect(res.assets).toHaveLength(24);
    expect(opengameart.searchUrl(query({ filters: { license: ["cc0-1.0", "oga-by"] }, sort: "newest" }))).toBe(LICENSED);
  });

  it("asks only the licences the site offers, and nothing when it offers none of them", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // MIT is no licence term of OpenGameArt (its search form lists nine): no art there has it, so it narrows nothing away.
    const cc0 = `${TREE_3D}&field_art_licenses_tid%5B0%5D=4`;
    // STAND-IN: the recorded body of the unfiltered "tree" 3D search, served for the filtered URL.
    replay.add(
      { method: "GET", url: cc0, file: "search_tree_3d.html", status: 200, headers: { "content-type": "text/html; charset=utf-8" } },
      join(FIXTURES, "opengameart"),
    );
    await opengameart.search(query({ filters: { license: ["cc0", "mit"] } }), ctx);
    expect(replay.requested).toEqual([cc0]);
    const none = replayContext({ now: NOW });
    expect(await opengameart.search(query({ filters: { license: ["mit"] } }), none.ctx)).toMatchObject({ assets: [], total: 0 });
    expect(none.replay.requested).toEqual([]);
  });

  it("declares no listed keys: result cards hold only a title and a thumbnail", async () => {
    expect(opengameart.filtering).toEqual({ upstream: ["license", "newest"], listed: [] });
    const { ctx } = replayContext({ now: NOW });
    const { assets } = await opengameart.search(query(), ctx);
    expectListedExactly(assets, []);
  });
});
