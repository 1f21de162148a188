/**
 * Which preview the asset view gives an asset and the selection it asks for
 * (web/asset/preview/plan.ts), and the query the file picker's choices become (web/asset/choices.ts).
 */
import { describe, expect, it } from "vitest";
import type { AssetDetails, AssetFile } from "../core/schemas/index.ts";
import { choiceQuery, mapsOf, nearestResolution, resolutionsOf } from "../web/asset/choices.ts";
import { previewPlan } from "../web/asset/preview/plan.ts";
import { syntheticAsset } from "./helpers/synthetic-asset.ts";

const file = (filename: string, extra: Partial<AssetFile> = {}): AssetFile => ({
  url: `https://files.example/${filename}`,
  filename,
  format: filename.split(".").pop() ?? "",
  ...extra,
});
const details = (type: AssetDetails["type"], files: AssetFile[], downloadable = true): AssetDetails => ({
  ...syntheticAsset("example", "a", { type, downloadable }),
  files,
});

describe("previewPlan", () => {
  it("shows a model's smallest glTF or GLB in 3D", () => {
    const model = details("model", [
      file("chair_2k.gltf", { resolution: "2k" }),
      file("chair_1k.gltf", { resolution: "1k" }),
      file("chair.fbx"),
      file("chair_1k.glb", { resolution: "1k", requiresAuth: true }),
    ]);
    expect(previewPlan(model)).toEqual({ kind: "model", choices: { format: "gltf", resolution: "1k" } });
    expect(previewPlan(details("model", [file("chair.fbx"), file("chair.blend")]))).toBeUndefined();
  });

  it("shows an HDRI's smallest .hdr or .exr as a panorama, the .hdr when both are as small", () => {
    const hdri = details("hdri", [
      file("sky_4k.exr", { resolution: "4k" }),
      file("sky_1k.exr", { resolution: "1k" }),
      file("sky_1k.hdr", { resolution: "1k" }),
    ]);
    expect(previewPlan(hdri)).toEqual({ kind: "panorama", choices: { format: "hdr", resolution: "1k" } });
  });

  it("shows a texture's maps in an image format, never its EXR masters, and no preview for a zip", () => {
    const maps = details("texture", [
      file("wood_diff_1k.exr", { resolution: "1k", mapType: "diffuse" }),
      file("wood_diff_2k.jpg", { resolution: "2k", mapType: "diffuse" }),
      file("wood_diff_1k.png", { resolution: "1k", mapType: "diffuse" }),
      file("wood_diff_1k.jpg", { resolution: "1k", mapType: "diffuse", sizeBytes: 180_000 }),
      // A flat map compresses to little in PNG: still the JPEG set is the one to show.
      file("wood_metal_1k.png", { resolution: "1k", mapType: "metalness", sizeBytes: 900 }),
    ]);
    expect(previewPlan(maps)).toEqual({ kind: "texture", choices: { format: "jpg", resolution: "1k" } });
    expect(previewPlan(details("texture", [file("wood_1k.zip", { resolution: "1k" })]))).toBeUndefined();
  });

  it("plays a sound in the most widely played format and draws a font from its web format", () => {
    const sound = details("audio", [file("hit.wav", { sizeBytes: 90_000 }), file("hit-lq.mp3", { sizeBytes: 9_000 }), file("hit.aiff", { sizeBytes: 1_000 })]);
    expect(previewPlan(sound)).toEqual({ kind: "audio", choices: { format: "mp3", resolution: undefined } });
    expect(previewPlan(details("font", [file("abel.ttf"), file("abel.woff2")]))?.choices.format).toBe("woff2");
  });

  it("gives no preview when the source has no direct downloads", () => {
    expect(previewPlan(details("model", [file("chair_1k.glb", { resolution: "1k" })], false))).toBeUndefined();
  });
});

describe("the file picker's choices", () => {
  const files = [
    file("a_4k.jpg", { resolution: "4k", mapType: "diffuse" }),
    file("a_1k.jpg", { resolution: "1k", mapType: "diffuse" }),
    file("a_nor_1k.jpg", { resolution: "1k", mapType: "normal_gl" }),
    file("a_2048.png", { resolution: "2048", mapType: "diffuse" }),
    file("a_8k.jpg", { resolution: "8k", mapType: "diffuse", requiresAuth: true }),
  ];

  it("offers a format's resolutions smallest first and its maps, from the files a plain GET returns", () => {
    expect(resolutionsOf(files, "jpg")).toEqual(["1k", "4k"]);
    expect(mapsOf(files, "jpg")).toEqual(["diffuse", "normal_gl"]);
  });

  it("keeps the nearest resolution when the format changes, ties to the smaller", () => {
    expect(nearestResolution(["1k", "4k"], "2k")).toBe("1k");
    expect(nearestResolution(["1k", "4k"], "3k")).toBe("4k");
    expect(nearestResolution(["1k", "4k"], undefined)).toBe("1k");
  });

  it("writes the query /files and /download take, a listing's pixel width as its k", () => {
    expect(choiceQuery({ format: "jpg", resolution: "1k", maps: ["diffuse", "normal_gl"] })).toBe("format=jpg&resolution=1k&maps=diffuse,normal_gl");
    expect(choiceQuery({ format: "png", resolution: "2048" })).toBe("format=png&resolution=2k");
    expect(choiceQuery({})).toBe("");
  });
});
