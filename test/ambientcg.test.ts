import { describe, expect, it } from "vitest";
import { AssetIndex } from "../core/index/search-index.ts";
import { licenseById } from "../core/model/license.ts";
import { SearchParams } from "../core/model/search-params.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { BreakerRegistry } from "../core/search/circuit-breaker.ts";
import { searchAll } from "../core/search/search.ts";
import { ambientcg } from "../sources/ambientcg.ts";
import { sourceQuery } from "./helpers/query.ts";
import { replayContext, replayRuntime } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/ambientcg/manifest.json (v3 assets, the v2 downloads CSV of Nov 2023).

const NOW = new Date("2026-11-22T00:00:00Z");
const API = "https://ambientcg.com/api/v3/assets";
const INCLUDE = "include=type,title,url,tags,shortDescription,releaseDate,maps,technique,downloadStatistics,thumbnails,downloads";
const CSV_URL = "https://ambientcg.com/api/v2/downloads_csv";
const THUMBS = "https://acg-media.struffelproductions.com/file/ambientCG-Web/media/thumbnail";

const query = sourceQuery;

const setup = () => replayContext({ now: NOW });

describe("ambientcg: metadata", () => {
  it("is an indexed, free, CC0 API source with direct downloads, and no live search", () => {
    expect(ambientcg).toMatchObject({
      id: "ambientcg",
      name: "ambientCG",
      homepage: "https://ambientcg.com",
      mode: "indexed",
      access: "api",
      pricing: "free",
      supportsDownload: true,
      license: licenseById("CC0-1.0"),
      unit: "assets",
    });
    expect(ambientcg.key).toBeUndefined();
    // An indexed source filters by what its records carry (the index), so it declares no filtering of its own.
    expect(ambientcg).not.toHaveProperty("search");
    expect(ambientcg).not.toHaveProperty("filtering");
    expect([...ambientcg.assetTypes].sort()).toEqual(["hdri", "material", "model", "other", "texture"]);
  });
});

describe("ambientcg: crawl", () => {
  // One crawl of the 3.5 MB recording for every test here.
  let once: Promise<{ assets: Asset[]; requested: string[] }> | undefined;
  const crawled = () =>
    (once ??= (async () => {
      const { ctx, replay } = setup();
      return { assets: await ambientcg.crawl(ctx), requested: replay.requested };
    })());
  const cc0 = { license: licenseById("CC0-1.0"), price: { free: true } };

  it("asks the downloads CSV once and builds one valid asset per asset id", async () => {
    const { assets, requested } = await crawled();
    expect(requested).toEqual([CSV_URL]);
    expect(assets).toHaveLength(2186);
    expect(new Set(assets.map((a) => a.id)).size).toBe(2186);
    for (const asset of assets) expect(Asset.parse(asset)).toStrictEqual(asset);
    expect(assets.slice(0, 3).map((a) => a.id)).toEqual(["ambientcg:Carpet016", "ambientcg:PavingStones137", "ambientcg:Wood090A"]);
    const byType: Record<string, number> = {};
    for (const a of assets) byType[a.type] = (byType[a.type] ?? 0) + 1;
    expect(byType).toEqual({ material: 1964, hdri: 186, model: 31, other: 5 });
    expect(assets.every((a) => a.downloadable && a.tags.length === 0)).toBe(true);
  });

  it("maps a material: title and category from the id, formats inside its archives, resolutions, page and thumbnail", async () => {
    const { assets } = await crawled();
    expect(assets.find((a) => a.nativeId === "Carpet016")).toStrictEqual({
      id: "ambientcg:Carpet016",
      provider: "ambientcg",
      nativeId: "Carpet016",
      title: "Carpet 016",
      type: "material",
      tags: [],
      categories: ["Carpet"],
      url: "https://ambientcg.com/a/Carpet016",
      thumbnailUrl: `${THUMBS}/256-PNG/Carpet016.png`,
      ...cc0,
      formats: ["zip", "jpg", "png"],
      resolutions: ["1k", "2k", "4k", "8k"],
      downloadable: true,
    });
    expect(assets.find((a) => a.nativeId === "PavingStones137")).toMatchObject({ title: "Paving Stones 137", categories: ["Paving Stones"] });
  });

  it("maps an HDRI of loose EXR and tonemapped JPG files, its letter apart in the title", async () => {
    const { assets } = await crawled();
    expect(assets.find((a) => a.nativeId === "DaySkyHDRI040A")).toStrictEqual({
      id: "ambientcg:DaySkyHDRI040A",
      provider: "ambientcg",
      nativeId: "DaySkyHDRI040A",
      title: "Day Sky HDRI 040 A",
      type: "hdri",
      tags: [],
      categories: ["Day Sky HDRI"],
      url: "https://ambientcg.com/a/DaySkyHDRI040A",
      thumbnailUrl: `${THUMBS}/256-PNG/DaySkyHDRI040A.png`,
      ...cc0,
      formats: ["exr", "jpg"],
      resolutions: ["1k", "2k", "4k", "8k", "12k", "16k"],
      downloadable: true,
    });
  });

  it("maps a model, a terrain and a Substance file by their files", async () => {
    const { assets } = await crawled();
    const pick = (id: string) => assets.find((a) => a.nativeId === id)!;
    expect(pick("3DBread001")).toMatchObject({ title: "3D Bread 001", type: "model", categories: ["3D Bread"], formats: ["zip", "jpg", "png"] });
    expect(pick("3DBread001").resolutions).toEqual(["1k", "2k", "4k"]);
    expect(pick("Terrain001")).toMatchObject({ type: "other", formats: ["zip", "jpg", "png", "exr", "obj"], resolutions: ["1k", "2k", "4k", "8k"] });
    // One .sbsar with no attribute: a format, no resolution.
    const substance = pick("AcousticFoamSubstance001");
    expect(substance).toMatchObject({ title: "Acoustic Foam Substance 001", type: "material", formats: ["sbsar"], downloadable: true });
    expect(substance).not.toHaveProperty("resolutions");
  });

  it("rejects a CSV without its columns, naming the source", async () => {
    const { ctx, replay } = setup();
    replay.add({ url: CSV_URL, body: "<html>changed</html>" });
    await expect(ambientcg.crawl(ctx)).rejects.toThrow(/ambientcg: downloads_csv has no assetId/);
  });
});

describe("ambientcg: search", () => {
  it("is answered from the index: ambientCG is not asked at search time", async () => {
    const runtime = replayRuntime({ now: NOW });
    const index = AssetIndex.build(await ambientcg.crawl(runtime.context()));
    const before = runtime.replay.requested.length;
    const res = await searchAll(SearchParams.parse({ q: "carpet 016" }), { sources: [ambientcg], index, runtime, breakers: new BreakerRegistry() });
    expect(runtime.replay.requested.slice(before)).toEqual([]);
    expect(res.results[0]?.id).toBe("ambientcg:Carpet016");
    expect(res.providers).toEqual([
      { provider: "ambientcg", name: "ambientCG", status: "ok", count: expect.any(Number), total: expect.any(Number), tookMs: expect.any(Number) },
    ]);
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

  it("rejects a changed answer with a message naming the source", async () => {
    const url = `${API}?id=Carpet016&${INCLUDE}`;
    const { ctx, replay } = setup();
    replay.add({ url, body: "<html>changed</html>" });
    await expect(ambientcg.getAsset("Carpet016", ctx)).rejects.toThrow(/ambientcg: .* did not answer JSON/);
    const fresh = setup();
    fresh.replay.add({ url, body: JSON.stringify({ results: [] }) });
    await expect(ambientcg.getAsset("Carpet016", fresh.ctx)).rejects.toThrow(/ambientcg: API v3 answer/);
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
