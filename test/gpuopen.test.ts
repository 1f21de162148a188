import { describe, expect, it } from "vitest";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { gpuopen, packageUrl, SITE_LICENSE } from "../sources/gpuopen.ts";
import { sourceQuery } from "./helpers/query.ts";
import { replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/gpuopen/manifest.json (the whole catalogue of 2024-08, 454 materials
// in five real pages of /api/materials/, not trimmed; keys re-serialized alphabetically upstream).

const NOW = new Date("2026-11-22T00:00:00Z");
const API = "https://api.matlib.gpuopen.com/api";
const PAGES = [0, 100, 200, 300, 400].map((offset) => `${API}/materials/?limit=100&offset=${offset}`);
const page = (id: string) => `https://matlib.gpuopen.com/main/materials/all?material=${id}`;
const LICENSE = { name: "MIT Public Domain", commercialUse: true, attributionRequired: true };
const INDIGO = "0dc3d4af-569e-4cde-98af-15968255779e";

describe("gpuopen: metadata", () => {
  it("is an indexed free material API source with direct downloads, under the licence as the site states it", () => {
    expect(gpuopen).toMatchObject({
      id: "gpuopen",
      name: "AMD GPUOpen MaterialX Library",
      homepage: "https://matlib.gpuopen.com",
      mode: "indexed",
      access: "api",
      pricing: "free",
      supportsDownload: true,
      assetTypes: ["material"],
    });
    // "MIT Public Domain" is no SPDX id: none is claimed.
    expect(gpuopen.license).toStrictEqual(LICENSE);
    expect(SITE_LICENSE).toStrictEqual(LICENSE);
    expect(gpuopen).not.toHaveProperty("search");
  });

  it("links to the library itself, which documents no search parameter", () => {
    expect(gpuopen.searchUrl(sourceQuery("marble"))).toBe("https://matlib.gpuopen.com/main/materials/all");
  });
});

describe("gpuopen: crawl", () => {
  it("follows the next links through the five pages: all 454 materials", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const assets = await gpuopen.crawl(ctx);
    expect(replay.requested).toEqual(PAGES);
    expect(assets).toHaveLength(454);
    expect(new Set(assets.map((a) => a.id)).size).toBe(454);
    for (const asset of assets) Asset.parse(asset);
  });

  it("maps a static material without a description and a parametric one", async () => {
    const { ctx } = replayContext({ now: NOW });
    const [indigo, emerald] = await gpuopen.crawl(ctx);
    expect(indigo).toStrictEqual({
      id: `gpuopen:${INDIGO}`,
      provider: "gpuopen",
      nativeId: INDIGO,
      title: "Indigo Palm Wallpaper",
      type: "material",
      tags: ["MaterialX"],
      url: page(INDIGO),
      thumbnailUrl: "https://image.matlib.gpuopen.com/a693e33f-985b-437c-97be-f2482645fe84.jpeg", // renders_order[0], not renders[0]
      author: "AMD",
      license: LICENSE,
      price: { free: true },
      formats: ["zip", "mtlx"],
      downloadable: true,
      createdAt: "2023-04-19T23:07:16.472Z", // published_date
    });
    expect(emerald).toStrictEqual({
      id: "gpuopen:8c9de375-59a8-49a8-a553-639880e0b3f9",
      provider: "gpuopen",
      nativeId: "8c9de375-59a8-49a8-a553-639880e0b3f9",
      title: "Emerald Peaks Wallpaper", // description "" left out
      type: "material",
      tags: ["MaterialX", "parametric"],
      url: page("8c9de375-59a8-49a8-a553-639880e0b3f9"),
      thumbnailUrl: "https://image.matlib.gpuopen.com/afff0c66-dba8-4d79-b96b-459fbd9cbef5.jpeg",
      author: "AMD",
      license: LICENSE,
      price: { free: true },
      formats: ["zip", "mtlx"],
      downloadable: true,
      createdAt: "2023-04-19T22:19:05.547Z",
    });
  });

  it("keeps a description, and shows no tag or category UUIDs", async () => {
    const { ctx } = replayContext({ now: NOW });
    const assets = await gpuopen.crawl(ctx);
    expect(assets.find((a) => a.nativeId === "3fb7bd06-19a0-4f43-a65e-fd4e285157ef")).toMatchObject({
      title: "TH: Bricks Concrete Wall",
      description: "Texture Haven material by Dimitrios Savva and Rico Cilliers. Link to the original: https://polyhaven.com/a/t_concrete_wall_002",
    });
    expect(assets.filter((a) => a.description)).toHaveLength(170);
    // The "TH:" materials republish Poly Haven's: a search shows them as one result with the original.
    expect(assets.find((a) => a.nativeId === "3fb7bd06-19a0-4f43-a65e-fd4e285157ef")?.originalUrl).toBe("https://polyhaven.com/a/t_concrete_wall_002");
    expect(assets.filter((a) => a.originalUrl?.startsWith("https://polyhaven.com/a/"))).toHaveLength(169);
    expect(assets.filter((a) => a.originalUrl)).toHaveLength(169);
    expect(new Set(assets.flatMap((a) => a.tags))).toEqual(new Set(["MaterialX", "parametric"]));
    expect(assets.filter((a) => a.tags.includes("parametric"))).toHaveLength(27);
    expect(assets.some((a) => a.categories)).toBe(false);
  });

  it("refuses a next link off the API's host, naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: PAGES[0]!, body: JSON.stringify({ count: 1, next: "https://example.com/api/materials/?offset=100", results: [] }) });
    await expect(gpuopen.crawl(ctx)).rejects.toThrow(/gpuopen: next page https:\/\/example\.com\/api\/materials\/\?offset=100 is not on the API/);
    expect(replay.requested).toEqual([PAGES[0]]);
  });

  it("rejects a page of another shape, naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: PAGES[0]!, body: JSON.stringify({ detail: "changed" }) });
    await expect(gpuopen.crawl(ctx)).rejects.toThrow(/gpuopen: .*unexpected shape \(results/);
  });
});

describe("gpuopen: getAsset", () => {
  it("lists one direct zip per package, from the same pages", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await gpuopen.getAsset(INDIGO, ctx);
    expect(replay.requested).toEqual(PAGES);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({ title: "Indigo Palm Wallpaper", downloadable: true });
    const packages = ["cda6c347-8e03-4658-8382-dda9522dbf47", "c27f961d-7518-4a51-ba05-ae52e420c854", "6e8a8129-b385-4c7c-a336-83946a18ed24"];
    expect(details!.files.slice(0, 3)).toStrictEqual(
      packages.map((uuid, i) => ({ url: `${API}/packages/${uuid}/download`, filename: `Indigo_Palm_Wallpaper-${i + 1}.zip`, format: "zip", group: "archive" })),
    );
    expect(details!.files).toHaveLength(6);
    expect(packageUrl("cda6c347-8e03-4658-8382-dda9522dbf47")).toBe(
      "https://api.matlib.gpuopen.com/api/packages/cda6c347-8e03-4658-8382-dda9522dbf47/download",
    );
  });

  it("answers null for an id the catalogue does not hold", async () => {
    const { ctx } = replayContext({ now: NOW });
    expect(await gpuopen.getAsset("00000000-0000-0000-0000-000000000000", ctx)).toBeNull();
  });
});

describe("gpuopen: census", () => {
  it("counts every material, all free and under the site's licence, with the newest one", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const census = await gpuopen.census(ctx);
    expect(replay.requested).toEqual(PAGES);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toStrictEqual({
      id: "gpuopen",
      name: "AMD GPUOpen MaterialX Library",
      homepage: "https://matlib.gpuopen.com",
      total: 454,
      free: 454,
      byType: { material: 454 },
      byLicense: { "MIT Public Domain": 454 },
      addedLast30Days: 0,
      highlights: [{ label: "Newest material", title: "Car Paint", url: page("da6ec531-f5c1-4790-ac14-8a5c51d0314e") }],
      method: "GPUOpen MaterialX Library API: every material of its 5 /api/materials/ pages counted (all free; categories are ids without names)",
      unit: "assets",
      countedAt: NOW.toISOString(),
    });
  });

  it("counts publications of the last 30 days relative to the clock", async () => {
    const { ctx } = replayContext({ now: new Date("2023-05-10T00:00:00Z") });
    // Three published on 2023-04-19; the next-newest is of 2022-12-07, and Car Paint (2023-06-08) is still to come.
    expect((await gpuopen.census(ctx)).addedLast30Days).toBe(3);
  });
});
