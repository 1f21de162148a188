import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Asset } from "../core/schemas/index.ts";
import { searchApiUrl, texturescom } from "../sources/texturescom.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { FIXTURES, replayContext } from "./helpers/replay.ts";

// Recorded response: test/fixtures/texturescom/manifest.json. The exact recorded query string is
// unknown: the recording is mapped to the URL this source asks for q=tree (see the manifest's note).
// Requests with no recording fail as network errors that name the URL, which still lets a test assert
// the URL asked. Inline bodies below are marked SYNTHETIC.

const NOW = new Date("2026-11-22T00:00:00Z");
const API = "https://www.textures.com/api/v1/texture/search";

const query = sourceQuery;

describe("texturescom: metadata", () => {
  it("is a live, freemium API source without direct downloads, details or census", () => {
    expect(texturescom).toMatchObject({
      id: "texturescom",
      name: "Textures.com",
      homepage: "https://www.textures.com",
      mode: "live",
      access: "api",
      pricing: "freemium",
      supportsDownload: false,
    });
    expect([...texturescom.assetTypes].sort()).toEqual(["hdri", "material", "model", "texture"]);
    // No detail endpoint and no count were recorded: see the source's header.
    expect(texturescom.getAsset).toBeUndefined();
    expect(texturescom.census).toBeUndefined();
  });
});

describe("texturescom: search", () => {
  it("asks the search API once from offset 0 and maps every result", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await texturescom.search(query("tree"), ctx);

    expect(replay.requested).toEqual([`${API}?q=tree`]);
    expect(result.total).toBeUndefined(); // the API gives no count
    expect(result.assets.map((a) => [a.nativeId, a.type, a.price?.free])).toEqual([
      ["140105", "texture", false],
      ["127249", "texture", false],
      ["148230", "model", false],
      ["133410", "texture", true],
      ["133992", "hdri", true],
    ]);
    for (const asset of result.assets) expect(Asset.parse(asset)).toStrictEqual(asset);
    expect(result.assets[4]).toStrictEqual({
      id: "texturescom:133992",
      provider: "texturescom",
      nativeId: "133992",
      title: "Norway Forest",
      description: "HDR Panorama 0087 - Norway Forest, HDRi light probe",
      type: "hdri",
      tags: [],
      categories: ["HDR Environments", "Nature"],
      url: "https://www.textures.com/download/hdr-panorama-0087-norway-forest-hdri-light-probe/133992",
      thumbnailUrl: "https://www.textures.com/system/gallery/photos/HDR%20Environments/115068-Nature/ps133992/133992_thumbnail_small.jpg",
      price: { free: true },
      resolutions: ["24k"],
      downloadable: false,
      createdAt: "2018-11-21T15:41:29+00:00",
    });
    expect(result.assets[0]).toMatchObject({
      title: "Pine Tree Roots Ground",
      tags: ["scanned"],
      categories: ["Nature", "Forest Ground"],
      url: "https://www.textures.com/download/3d-scanned-ground-with-pine-tree-roots-15x15-2x2-meters/140105",
      resolutions: ["8k"],
    });
    expect(result.assets[2]).toMatchObject({ title: "Birch Tree 2", categories: ["3D Foliage", "Trees"] });
    expect(result.assets[2]!.resolutions).toBeUndefined();
  });

  it("respects limit and filters types on the results", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    expect((await texturescom.search(query("tree", { limit: 2 }), ctx)).assets.map((a) => a.nativeId)).toEqual(["140105", "127249"]);
    expect((await texturescom.search(query("tree", { types: ["hdri"] }), ctx)).assets.map((a) => a.nativeId)).toEqual(["133992"]);
    expect(replay.requested).toEqual([`${API}?q=tree`]); // the repeat is answered by the client's cache
  });

  it("asks filter=free for free results, which are free by the site's word", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    await expect(texturescom.search(query("tree", { free: true }), ctx)).rejects.toThrow(/no recorded response/);
    expect(replay.requested).toEqual([`${API}?q=tree&filter=free`]);

    const body = readFileSync(join(FIXTURES, "texturescom", "search_tree.json"), "utf8");
    const again = replayContext({ now: NOW });
    again.replay.add({ url: `${API}?q=tree&filter=free`, body, note: "SYNTHETIC: the recorded unfiltered body served for the free URL" });
    const free = await texturescom.search(query("tree", { free: true }), again.ctx);
    expect(free.assets.every((a) => a.price?.free === true)).toBe(true);
  });

  it("pages on from a later offset, learning the page size from page 1", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // Page 1 holds 5 results, so offset 5 is page 2 (not recorded: the request fails, naming it).
    await expect(texturescom.search(query("tree", { offset: 5, limit: 5 }), ctx)).rejects.toThrow(/no recorded response/);
    expect(replay.requested).toEqual([`${API}?q=tree`, `${API}?q=tree&page=2`]);

    // SYNTHETIC page 2: the recorded body again (ids repeat; only the slicing is under test).
    const body = readFileSync(join(FIXTURES, "texturescom", "search_tree.json"), "utf8");
    const paged = replayContext({ now: NOW });
    paged.replay.add({ url: `${API}?q=tree&page=2`, body, note: "SYNTHETIC" });
    const result = await texturescom.search(query("tree", { offset: 3, limit: 4 }), paged.ctx);
    expect(result.assets.map((a) => a.nativeId)).toEqual(["133410", "133992", "140105", "127249"]);
    expect(searchApiUrl("old wood", 3, true)).toBe(`${API}?q=old%20wood&filter=free&page=3`);
  });

  it("keeps page 1's results when a later page of the window fails (page 2 is not recorded)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // Offset 3 + limit 5 spans page 1 (5 results) and page 2; page 2 fails: page 1's last two remain.
    const result = await texturescom.search(query("tree", { offset: 3, limit: 5 }), ctx);
    expect(replay.requested).toEqual([`${API}?q=tree`, `${API}?q=tree&page=2`]);
    expect(result.assets.map((a) => a.nativeId)).toEqual(["133410", "133992"]);

    const failing = replayContext({ now: NOW });
    failing.replay.add({ url: `${API}?q=tree&page=2`, status: 500, body: "oops" });
    const again = await texturescom.search(query("tree", { offset: 3, limit: 5 }), failing.ctx);
    expect(again.assets.map((a) => a.nativeId)).toEqual(["133410", "133992"]);
  });

  it("asks nothing for types it does not have, or for direct downloads", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    expect(await texturescom.search(query("tree", { types: ["audio"] }), ctx)).toEqual({ assets: [], total: 0 });
    expect(await texturescom.search(query("tree", { downloadable: true }), ctx)).toEqual({ assets: [], total: 0 });
    expect(replay.requested).toEqual([]);
  });

  it("rejects a malformed answer with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}?q=tree`, body: '{"success":false,"message":"changed"}' });
    await expect(texturescom.search(query("tree"), ctx)).rejects.toThrow(/^texturescom: /);
    const other = replayContext({ now: NOW });
    other.replay.add({ url: `${API}?q=tree`, body: '{"success":true,"data":[{"id":1}]}' });
    await expect(texturescom.search(query("tree"), other.ctx)).rejects.toThrow(/^texturescom: /);
  });
});

describe("texturescom: searchUrl", () => {
  it("is the site's own search page", () => {
    expect(texturescom.searchUrl(query("tree bark"))).toBe("https://www.textures.com/search?q=tree%20bark");
  });
});

describe("texturescom: filters and sorts", () => {
  it("declares exactly the keys its listings carry", async () => {
    const { ctx } = replayContext({ now: NOW });
    const result = await texturescom.search(query("tree"), ctx);
    const assets = result.assets;
    const listed = texturescom.filtering!.listed;
    expectListedExactly(assets, listed);
    expect(texturescom.filtering!.upstream).toEqual([]);
  });
});
