import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { ambientcg } from "../sources/ambientcg.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { FIXTURES, replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/ambientcg/manifest.json (v3 searches and assets, the v2 downloads CSV).

const NOW = new Date("2026-11-22T00:00:00Z");
const API = "https://ambientcg.com/api/v3/assets";
const INCLUDE = "include=type,title,url,tags,shortDescription,releaseDate,maps,technique,downloadStatistics,thumbnails,downloads";
const WOOD_URL = `${API}?q=wood&limit=3&offset=0&${INCLUDE}`;
const APPLE_URL = `${API}?q=apple&type=3d-model&limit=24&offset=0&${INCLUDE}`;
const CSV_URL = "https://ambientcg.com/api/v2/downloads_csv";
const THUMBS = "https://acg-media.struffelproductions.com/file/ambientCG-Web/media/thumbnail";

const query = sourceQuery;

const setup = () => replayContext({ now: NOW });

describe("ambientcg: metadata", () => {
  it("is a live, free, CC0 API source with direct downloads", () => {
    expect(ambientcg).toMatchObject({
      id: "ambientcg",
      name: "ambientCG",
      homepage: "https://ambientcg.com",
      mode: "live",
      access: "api",
      pricing: "free",
      supportsDownload: true,
      license: licenseById("CC0-1.0"),
    });
    expect(ambientcg.key).toBeUndefined();
    expect([...ambientcg.assetTypes].sort()).toEqual(["hdri", "material", "model", "texture"]);
  });
});

describe("ambientcg: search", () => {
  it("asks v3 with q, limit, offset and the include list, and maps each result", async () => {
    const { ctx, replay } = setup();
    const result = await ambientcg.search(query("wood", { limit: 3 }), ctx);

    expect(replay.requested).toEqual([WOOD_URL]);
    expect(result.total).toBe(331);
    expect(result.searchUrl).toBe("https://ambientcg.com/list?q=wood");
    expect(result.assets.map((a) => a.id)).toEqual(["ambientcg:Wood096", "ambientcg:Wood095", "ambientcg:Wood094"]);
    for (const asset of result.assets) Asset.parse(asset);
    expect(result.assets[1]).toStrictEqual({
      id: "ambientcg:Wood095",
      provider: "ambientcg",
      nativeId: "Wood095",
      title: "Wood 095",
      type: "material",
      tags: ["095", "95", "beige", "clean", "indoor", "light", "minimalist", "modern", "natural", "polished", "rustic", "smooth", "subtle", "uniform", "wood"],
      categories: ["Wood"],
      url: "https://ambientcg.com/a/Wood095",
      thumbnailUrl: `${THUMBS}/256-PNG/Wood095.png`,
      license: licenseById("CC0-1.0"),
      price: { free: true },
      formats: ["zip", "jpg", "png"],
      resolutions: ["1k", "2k", "4k", "8k", "12k", "16k"],
      downloadable: true,
      createdAt: "2026-03-08T00:00:00.000Z",
      downloads: 51805,
    });
  });

  it("passes a single type upstream (model → 3d-model)", async () => {
    const { ctx, replay } = setup();
    const result = await ambientcg.search(query("apple", { types: ["model"] }), ctx);
    expect(replay.requested).toEqual([APPLE_URL]);
    expect(result.total).toBe(3);
    expect(result.assets.map((a) => [a.nativeId, a.type, a.categories])).toEqual([
      ["3DApple002", "model", ["3D Apple"]],
      ["3DApple001", "model", ["3D Apple"]],
      ["3DApple003", "model", ["3D Apple"]],
    ]);
    expect(result.assets[0]!.formats).toEqual(["zip", "jpg", "png"]);
    expect(result.assets[0]!.resolutions).toEqual(["1k", "2k", "4k"]);
  });

  it("asks texture and material as one comma list, in a fixed order, paging by offset", async () => {
    const { ctx, replay } = setup();
    const url = `${API}?q=wood&type=material,substance,decal,atlas&limit=3&offset=6&${INCLUDE}`;
    // Scripted for this test: the real wood recording answers this URL too.
    replay.add({ url, file: "v3_search_wood.json" }, join(FIXTURES, "ambientcg"));
    const result = await ambientcg.search(query("wood", { types: ["texture", "material"], limit: 3, offset: 6 }), ctx);
    expect(replay.requested).toEqual([url]);
    expect(result.assets).toHaveLength(3);
    expect(result.total).toBe(331);
    expect(result.searchUrl).toBe("https://ambientcg.com/list?q=wood&type=material,substance,decal,atlas");
  });

  it("asks limit=24 with the default limit (manifest STAND-IN: the recorded page of 3)", async () => {
    const { ctx, replay } = setup();
    const result = await ambientcg.search(query("wood"), ctx);
    expect(replay.requested).toEqual([`${API}?q=wood&limit=24&offset=0&${INCLUDE}`]);
    expect(result.assets.map((a) => a.id)).toEqual(["ambientcg:Wood096", "ambientcg:Wood095", "ambientcg:Wood094"]);
    expect(result.total).toBe(331);
  });

  it("drops results of other types locally and then gives no total", async () => {
    const { ctx, replay } = setup();
    const url = `${API}?q=wood&type=hdri&limit=3&offset=0&${INCLUDE}`;
    // Scripted: an answer holding materials where HDRIs were asked (an upstream filter that did not apply).
    replay.add({ url, file: "v3_search_wood.json" }, join(FIXTURES, "ambientcg"));
    const result = await ambientcg.search(query("wood", { types: ["hdri"], limit: 3 }), ctx);
    expect(replay.requested).toEqual([url]);
    expect(result.assets).toEqual([]);
    expect(result.total).toBeUndefined();
  });

  it("asks nothing for a type ambientCG does not have", async () => {
    const { ctx, replay } = setup();
    const result = await ambientcg.search(query("wood", { types: ["audio"] }), ctx);
    expect(replay.requested).toEqual([]);
    expect(result).toMatchObject({ assets: [], total: 0 });
  });

  it("rejects a changed answer with a message naming the source", async () => {
    const { ctx, replay } = setup();
    replay.add({ url: WOOD_URL, body: "<html>changed</html>" });
    await expect(ambientcg.search(query("wood", { limit: 3 }), ctx)).rejects.toThrow(/ambientcg: .* did not answer JSON/);
    const fresh = setup();
    fresh.replay.add({ url: WOOD_URL, body: JSON.stringify({ results: [] }) });
    await expect(ambientcg.search(query("wood", { limit: 3 }), fresh.ctx)).rejects.toThrow(/ambientcg: API v3 answer/);
  });
});

describe("ambientcg: getAsset", () => {
  it("lists one /get?file= archive per quality, resolution and format", async () => {
    const { ctx, replay } = setup();
    const details = await ambientcg.getAsset("3DApple002", ctx);
    expect(replay.requested).toEqual([`${API}?id=3DApple002&${INCLUDE}`]);
    expect(details).not.toBeNull();
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({
      id: "ambientcg:3DApple002",
      title: "3D Apple 002",
      type: "model",
      url: "https://ambientcg.com/a/3DApple002",
      thumbnailUrl: `${THUMBS}/256-PNG/3DApple002.png`,
      license: { spdx: "CC0-1.0" },
      price: { free: true },
      downloadable: true,
      createdAt: "2024-09-25T00:00:00.000Z",
    });
    expect(details!.files).toHaveLength(18);
    expect(details!.files[0]).toStrictEqual({
      url: "https://ambientcg.com/get?file=3DApple002_LQ-1K-JPG.zip",
      filename: "3DApple002_LQ-1K-JPG.zip",
      format: "zip",
      resolution: "1k",
      sizeBytes: 3108778,
      group: "archive",
    });
    expect(details!.files[17]).toMatchObject({ filename: "3DApple002_HQ-4K-PNG.zip", resolution: "4k", sizeBytes: 44490153 });
    expect(details!.files.every((f) => f.url.startsWith("https://ambientcg.com/get?file=") && !f.requiresAuth)).toBe(true);
  });

  it("maps an HDRI with its 1K–16K archives", async () => {
    const { ctx } = setup();
    const details = await ambientcg.getAsset("DaySkyHDRI071B", ctx);
    expect(details).toMatchObject({ type: "hdri", categories: ["Day Sky HDRI"], formats: ["zip"] });
    expect(details!.files.map((f) => [f.resolution, f.url])).toEqual(
      ["1K", "2K", "4K", "8K", "12K", "16K"].map((r) => [r.toLowerCase(), `https://ambientcg.com/get?file=DaySkyHDRI071B_${r}.zip`]),
    );
  });

  it("answers null for an unknown id (empty answer or 404)", async () => {
    const { ctx, replay } = setup();
    replay.add({ url: `${API}?id=NoSuch001&${INCLUDE}`, body: JSON.stringify({ totalResults: 0, assets: [] }) });
    replay.add({ url: `${API}?id=Gone001&${INCLUDE}`, status: 404, body: "not found" });
    expect(await ambientcg.getAsset("NoSuch001", ctx)).toBeNull();
    expect(await ambientcg.getAsset("Gone001", ctx)).toBeNull();
  });
});

describe("ambientcg: census", () => {
  it("counts the downloads CSV: one asset per id, types read from the files", async () => {
    const { ctx, replay } = setup();
    const census = await ambientcg.census(ctx);
    expect(replay.requested).toEqual([CSV_URL]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toMatchObject({
      id: "ambientcg",
      total: 2186,
      free: 2186,
      byType: { material: 1964, hdri: 186, model: 31, other: 5 },
      byLicense: { "CC0-1.0": 2186 },
      unit: "assets",
      countedAt: NOW.toISOString(),
    });
    expect(Object.keys(census.categories!)).toHaveLength(205);
    expect(census.categories).toMatchObject({ "Paving Stones": 141, Tiles: 132, "Day Sky HDRI": 80, "3D Bread": 13 });
    expect(census.method).toMatch(/downloads_csv/);
  });

  it("rejects a CSV without its columns, naming the source", async () => {
    const { ctx, replay } = setup();
    replay.add({ url: CSV_URL, body: "<html>changed</html>" });
    await expect(ambientcg.census(ctx)).rejects.toThrow(/ambientcg: downloads_csv/);
  });
});

describe("ambientcg: searchUrl", () => {
  it("opens the same search on the site's list page", () => {
    expect(ambientcg.searchUrl(query("red brick"))).toBe("https://ambientcg.com/list?q=red%20brick");
    expect(ambientcg.searchUrl(query("", { types: ["hdri"] }))).toBe("https://ambientcg.com/list?type=hdri");
    expect(ambientcg.searchUrl(query(""))).toBe("https://ambientcg.com/list");
  });
});

describe("ambientcg: filters and sorts", () => {
  it("asks the API for its own order on sort=newest (latest) and sort=popular", async () => {
    const { ctx, replay } = setup();
    for (const [sort, upstream] of [
      ["newest", "latest"],
      ["popular", "popular"],
    ] as const) {
      const url = `${API}?q=wood&sort=${upstream}&limit=3&offset=0&${INCLUDE}`;
      // Stand-in: the recorded body of the unfiltered q=wood search served for the sorted URL.
      replay.add(
        { method: "GET", url, file: "v3_search_wood.json", status: 200, headers: { "content-type": "application/json" } },
        join(FIXTURES, "ambientcg"),
      );
      await ambientcg.search(query("wood", { limit: 3, sort }), ctx);
      expect(replay.requested.at(-1)).toBe(url);
    }
  });

  it("sends no sort for relevance or name, and no parameter for filters the API has none for", async () => {
    const { ctx, replay } = setup();
    await ambientcg.search(query("wood", { limit: 3, sort: "name", filters: { license: ["cc0"], resolution: 4, format: ["png"] } }), ctx);
    expect(replay.requested).toEqual([WOOD_URL]);
  });

  it("fills downloads from downloadStatistics.total", async () => {
    const { ctx } = setup();
    const { assets } = await ambientcg.search(query("wood", { limit: 3 }), ctx);
    expect(assets.map((a) => a.downloads)).toEqual([1649, 51805, 65672]);
  });

  it("declares exactly the keys its listings carry", async () => {
    const { ctx } = setup();
    const { assets } = await ambientcg.search(query("wood", { limit: 3 }), ctx);
    const listed = ambientcg.filtering!.listed;
    expectListedExactly(assets, listed);
    expect(ambientcg.filtering!.upstream).toEqual(["newest", "popular"]);
  });
});
