import { describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import type { SourceQuery } from "../core/model/source.ts";
import { SourceError } from "../core/model/source-error.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { polyhaven, resolutionsFor } from "../sources/polyhaven.ts";
import { sourceQuery } from "./helpers/query.ts";
import { replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/polyhaven/manifest.json. The /assets?type=models and ?type=hdris
// entries are a stand-in (the real all-types /assets recording, trimmed upstream to 5 assets): the
// source keeps only entries of the asked type, so they yield 2 models and 2 HDRIs.

const API = "https://api.polyhaven.com";
const ASSETS_URLS = [`${API}/assets?type=hdris`, `${API}/assets?type=models`, `${API}/assets?type=textures`];
const DL = "https://dl.polyhaven.org/file/ph-assets/Models";

/** The URLs asked, sorted: requests go out concurrently, so only the set and the count are fixed (no extras, no repeats). */
const asked = (replay: { requested: string[] }) => [...replay.requested].sort();

const query = (q: string, types: SourceQuery["types"] = []) => sourceQuery(q, { types });

describe("polyhaven: metadata", () => {
  it("is an indexed, free, CC0 API source that supports downloads", () => {
    expect(polyhaven).toMatchObject({
      id: "polyhaven",
      mode: "indexed",
      access: "api",
      pricing: "free",
      supportsDownload: true,
      license: licenseById("CC0-1.0"),
    });
    expect([...polyhaven.assetTypes].sort()).toEqual(["hdri", "model", "texture"]);
  });
});

describe("polyhaven: crawl", () => {
  it("asks exactly the three /assets listings and maps every asset of the asked type", async () => {
    const { ctx, replay } = replayContext();
    const assets = await polyhaven.crawl(ctx);

    expect(asked(replay)).toEqual(ASSETS_URLS);
    // 767 textures (full recording) + 2 models + 2 HDRIs (stand-in filtered by type).
    expect(assets).toHaveLength(771);
    expect(assets.filter((a) => a.type === "texture")).toHaveLength(767);
    expect(assets.filter((a) => a.type === "model").map((a) => a.nativeId)).toEqual(["ArmChair_01", "WoodenChair_01"]);
    expect(assets.filter((a) => a.type === "hdri").map((a) => a.nativeId)).toEqual(["venice_sunset", "abandoned_bakery"]);
    expect(new Set(assets.map((a) => a.id)).size).toBe(771);
    for (const asset of assets) Asset.parse(asset);
  });

  it("maps ArmChair_01 field by field from the recording", async () => {
    const { ctx } = replayContext();
    const assets = await polyhaven.crawl(ctx);
    const chair = assets.find((a) => a.id === "polyhaven:ArmChair_01");
    expect(chair).toStrictEqual({
      id: "polyhaven:ArmChair_01",
      provider: "polyhaven",
      nativeId: "ArmChair_01",
      title: "Arm Chair 01",
      description:
        "Free (CC0) vintage Victorian armchair 3D model - varnished carved wood frame, upholstered seat; gothic/classic styling ideal for interiors, period scenes, and renders.",
      type: "model",
      // The recording's tags, then its attributes' lists (condition worn, material wood and fabric).
      tags: ["gothic", "vintage", "chair", "furniture", "victorian", "couch", "wood", "varnished", "classic", "worn", "fabric"],
      // Its categories, then the levels of its category path "Furniture/Seating/Chairs" not among them.
      categories: ["furniture", "seating", "Chairs"],
      url: "https://polyhaven.com/a/ArmChair_01",
      thumbnailUrl: "https://cdn.polyhaven.com/asset_img/thumbs/ArmChair_01.png?width=256&height=256&format=webp&v=abbc4732",
      author: "Kirill Sannikov",
      license: licenseById("CC0-1.0"),
      price: { free: true },
      formats: ["gltf", "blend", "fbx", "usd"],
      resolutions: ["1k", "2k", "4k"],
      polyCount: 5626,
      downloadable: true,
      createdAt: "2020-03-30T22:00:00.000Z", // date_published 1585605600
      downloads: 32198, // download_count
    });
    expect(Asset.parse(chair)).toStrictEqual(chair);
  });

  it("adds the category path's levels and the attributes' lists and flags, never their single values", async () => {
    const { ctx } = replayContext();
    const byId = new Map((await polyhaven.crawl(ctx)).map((a) => [a.nativeId, a]));
    const bakery = byId.get("abandoned_bakery")!;
    // category "Abandoned & Ruins/Buildings/Derelict Interiors"; attributes light_type mixed, contrast high,
    // backplates true (already a tag), environment indoor, weather overcast.
    expect(bakery.categories).toEqual([
      "natural light",
      "artificial light",
      "urban",
      "indoor",
      "high contrast",
      "Abandoned & Ruins",
      "Buildings",
      "Derelict Interiors",
    ]);
    expect(bakery.tags).toEqual(["abandoned", "empty", "industrial", "windows", "bare", "rubble", "brick", "concrete", "backplates"]);
    const venice = byId.get("venice_sunset")!;
    expect(venice.categories!.slice(-3)).toEqual(["Coast & Water", "Harbours & Piers", "Promenades & Seafronts"]);
    expect(venice.tags).toEqual(["sun", "europe", "architecture", "building", "street", "town", "ocean", "river", "cobblestone"]);
    // The full textures recording is of the older form, without category path or attributes.
    expect(byId.get("aerial_asphalt_01")).toMatchObject({
      tags: ["road", "flat", "cracked"],
      categories: ["asphalt", "outdoor", "floor", "road", "man made", "aerial"],
    });
  });

  it("maps HDRIs and textures with their own formats and resolutions", async () => {
    const { ctx } = replayContext();
    const assets = await polyhaven.crawl(ctx);
    const venice = assets.find((a) => a.nativeId === "venice_sunset")!;
    expect(venice).toMatchObject({
      type: "hdri",
      title: "Venice Sunset",
      author: "Greg Zaal",
      formats: ["hdr", "exr"],
      resolutions: ["1k", "2k", "4k", "8k", "16k"], // max_resolution [16384, 8192]
      createdAt: new Date(1519789049 * 1000).toISOString(),
      downloads: 365857, // download_count
    });
    expect(venice.polyCount).toBeUndefined();
    const rocks = assets.find((a) => a.nativeId === "aerial_rocks_01")!;
    expect(rocks).toMatchObject({
      type: "texture",
      url: "https://polyhaven.com/a/aerial_rocks_01",
      formats: ["jpg", "png", "exr", "blend", "gltf", "mtlx"],
      resolutions: ["1k", "2k", "4k", "8k"], // max_resolution [8192, 8192]
    });
  });

  it("derives resolutions from max_resolution, tolerating sides a little short of a power of two", () => {
    expect(resolutionsFor([8192, 8192])).toEqual(["1k", "2k", "4k", "8k"]);
    expect(resolutionsFor([16384, 8192])).toEqual(["1k", "2k", "4k", "8k", "16k"]);
    expect(resolutionsFor([8042, 8037])).toEqual(["1k", "2k", "4k", "8k"]); // a real texture's size
    expect(resolutionsFor([4096, 4096])).toEqual(["1k", "2k", "4k"]);
    expect(resolutionsFor(undefined)).toBeUndefined();
  });
});

describe("polyhaven: getAsset", () => {
  it("asks /info and /files and lists every file with its map role or package", async () => {
    const { ctx, replay } = replayContext();
    const details = await polyhaven.getAsset("ArmChair_01", ctx);

    expect(asked(replay)).toEqual([`${API}/files/ArmChair_01`, `${API}/info/ArmChair_01`]);
    expect(details).not.toBeNull();
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({ id: "polyhaven:ArmChair_01", type: "model", title: "Arm Chair 01", polyCount: 5626 });

    const files = details!.files;
    // 6 maps × 3 resolutions × 3 formats + 4 packages × 3 resolutions.
    expect(files).toHaveLength(66);
    expect(files.filter((f) => f.group === "textures")).toHaveLength(54);
    expect(new Set(files.filter((f) => f.mapType).map((f) => f.mapType))).toEqual(
      new Set(["diffuse", "normal_dx", "normal_gl", "metalness", "arm", "roughness"]),
    );
    expect(new Set(files.map((f) => f.group))).toEqual(new Set(["textures", "gltf", "blend", "fbx", "usd"]));

    expect(files.find((f) => f.filename === "Armchair_01_nor_gl_2k.jpg")).toStrictEqual({
      url: `${DL}/jpg/2k/ArmChair_01/Armchair_01_nor_gl_2k.jpg`,
      filename: "Armchair_01_nor_gl_2k.jpg",
      format: "jpg",
      resolution: "2k",
      mapType: "normal_gl",
      sizeBytes: 1482566,
      group: "textures",
    });

    const gltf = files.find((f) => f.group === "gltf" && f.resolution === "2k");
    expect(gltf).toStrictEqual({
      url: `${DL}/gltf/2k/ArmChair_01/ArmChair_01_2k.gltf`,
      filename: "ArmChair_01_2k.gltf",
      format: "gltf",
      resolution: "2k",
      sizeBytes: 2643,
      group: "gltf",
      includes: [
        { path: "textures/Armchair_01_nor_gl_2k.jpg", url: `${DL}/jpg/2k/ArmChair_01/Armchair_01_nor_gl_2k.jpg`, sizeBytes: 1482566 },
        // The recording shares one .bin between resolutions: it lives in the 4k folder.
        { path: "ArmChair_01.bin", url: `${DL}/gltf/4k/ArmChair_01/ArmChair_01.bin`, sizeBytes: 154012 },
        { path: "textures/Armchair_01_diff_2k.jpg", url: `${DL}/jpg/2k/ArmChair_01/Armchair_01_diff_2k.jpg`, sizeBytes: 723200 },
        { path: "textures/Armchair_01_arm_2k.jpg", url: `${DL}/jpg/2k/ArmChair_01/Armchair_01_arm_2k.jpg`, sizeBytes: 442886 },
      ],
    });

    const usd = files.find((f) => f.group === "usd" && f.resolution === "1k")!;
    expect(usd).toMatchObject({ format: "usd", filename: "ArmChair_01_1k.usdc", sizeBytes: 398311 });
    expect(usd.includes).toHaveLength(4);
  });

  it("answers null for an unknown slug (404)", async () => {
    const { ctx, replay } = replayContext();
    for (const path of ["info", "files"]) {
      replay.add({ url: `${API}/${path}/NoSuchAsset`, status: 404, body: '{"error":"not found"}', note: "scripted 404" });
    }
    expect(await polyhaven.getAsset("NoSuchAsset", ctx)).toBeNull();
    expect(asked(replay)).toEqual([`${API}/files/NoSuchAsset`, `${API}/info/NoSuchAsset`]);
  });

  it("lets other failures propagate", async () => {
    const { ctx, replay } = replayContext();
    replay.add({ url: `${API}/info/Broken_01`, status: 500, body: "oops", note: "scripted 500" });
    replay.add({ url: `${API}/files/Broken_01`, body: "{}", note: "scripted" });
    const err = await polyhaven.getAsset("Broken_01", ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect(err).toMatchObject({ source: "polyhaven", kind: "http", status: 500 });
  });
});

describe("polyhaven: census", () => {
  it("counts every asset of the three listings", async () => {
    const now = new Date("2026-07-01T00:00:00Z");
    const { ctx, replay } = replayContext({ now });
    const census = await polyhaven.census(ctx);

    expect(asked(replay)).toEqual(ASSETS_URLS);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toMatchObject({
      id: "polyhaven",
      name: "Poly Haven",
      homepage: "https://polyhaven.com",
      total: 771,
      free: 771,
      byType: { hdri: 2, model: 2, texture: 767 },
      byLicense: { "CC0-1.0": 771 },
      unit: "assets",
      // 38,770,524 (textures) + 32,198 + 19,166 (models) + 365,857 + 18,401 (HDRIs)
      downloads: 39_206_146,
      // concrete_block_wall_03, exterior_wall_cladding_02/03, marble_rock_01/02
      addedLast30Days: 5,
      method: "Poly Haven public API: /assets per type, every asset counted",
      countedAt: "2026-07-01T00:00:00.000Z",
    });
    expect(Object.keys(census.categories!)).toHaveLength(65);
    expect(census.categories).toMatchObject({ outdoor: 479, furniture: 2, aerial: 30 });
    expect(census.highlights).toEqual([
      { label: "Most downloaded HDRI", title: "Venice Sunset", url: "https://polyhaven.com/a/venice_sunset", value: 365857 },
      { label: "Most downloaded texture", title: "Plywood", url: "https://polyhaven.com/a/plywood", value: 715940 },
      { label: "Most downloaded model", title: "Arm Chair 01", url: "https://polyhaven.com/a/ArmChair_01", value: 32198 },
      { label: "Newest asset", title: "Marble Rock 02", url: "https://polyhaven.com/a/marble_rock_02" },
    ]);
  });

  it("does not count assets published after now", async () => {
    const { ctx } = replayContext({ now: new Date("2026-06-10T00:00:00Z") });
    const census = await polyhaven.census(ctx);
    // marble_rock_02 is published on 2026-06-12, after this clock.
    expect(census.addedLast30Days).toBe(9);
    expect(census.highlights!.at(-1)!.title).not.toBe("Marble Rock 02");
  });

  it("shares the /assets responses with crawl through the client's cache", async () => {
    const { ctx, replay } = replayContext();
    await polyhaven.crawl(ctx);
    await polyhaven.census(ctx);
    expect(asked(replay)).toEqual(ASSETS_URLS);
  });
});

describe("polyhaven: searchUrl", () => {
  it("uses /all, or the one type's page", () => {
    expect(polyhaven.searchUrl(query("old chair"))).toBe("https://polyhaven.com/all?s=old%20chair");
    expect(polyhaven.searchUrl(query("sky", ["hdri"]))).toBe("https://polyhaven.com/hdris?s=sky");
    expect(polyhaven.searchUrl(query("brick", ["texture", "material"]))).toBe("https://polyhaven.com/textures?s=brick");
    expect(polyhaven.searchUrl(query("chair", ["model"]))).toBe("https://polyhaven.com/models?s=chair");
    expect(polyhaven.searchUrl(query("chair", ["model", "hdri"]))).toBe("https://polyhaven.com/all?s=chair");
    expect(polyhaven.searchUrl(query("", ["model"]))).toBe("https://polyhaven.com/models");
  });
});
