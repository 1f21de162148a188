import { beforeAll, describe, expect, it } from "vitest";
import { MAP_ROLES, mapRole, selectFiles } from "../core/model/selection.ts";
import { AssetDetails, type AssetFile, FileParams } from "../core/schemas/index.ts";
import { polyhaven } from "../sources/polyhaven.ts";
import { replayContext } from "./helpers/replay.ts";

/** Params as the route would parse them from a query string. */
const params = (query: Record<string, string> = {}) => FileParams.parse(query);
const names = (files: AssetFile[]) => files.map((f) => f.filename);

// ---------------------------------------------------------------------------------------------
// SYNTHETIC: a texture map set shaped like Poly Haven's, made up for these tests (not a recording).
// 7 maps × 1k/2k/4k × jpg/png/exr, plus blend and gltf packages, plus a zip that needs a login.
// ---------------------------------------------------------------------------------------------
const SYN = "https://files.example.test/brick_wall_99";
const SYNTHETIC_MAPS = ["Diffuse", "nor_gl", "nor_dx", "Rough", "AO", "Displacement", "arm"];
function syntheticTexture(): AssetDetails {
  const files: AssetFile[] = [];
  for (const map of SYNTHETIC_MAPS) {
    for (const res of ["4k", "2k", "1k"]) {
      for (const format of ["jpg", "png", "exr"]) {
        const filename = `brick_wall_99_${map.toLowerCase()}_${res}.${format}`;
        files.push({ url: `${SYN}/${filename}`, filename, format, resolution: res, mapType: mapRole(map), sizeBytes: 1000, group: "textures" });
      }
    }
  }
  for (const pkg of ["blend", "gltf"]) {
    for (const res of ["1k", "2k", "4k"]) {
      const filename = `brick_wall_99_${res}.${pkg}`;
      files.push({ url: `${SYN}/${filename}`, filename, format: pkg, resolution: res, sizeBytes: 500, group: pkg });
    }
  }
  files.push({ url: `${SYN}/brick_wall_99_source.zip`, filename: "brick_wall_99_source.zip", format: "zip", requiresAuth: true });
  return AssetDetails.parse({
    id: "synthetic:brick_wall_99",
    provider: "synthetic",
    nativeId: "brick_wall_99",
    title: "Brick Wall 99 (synthetic)",
    type: "texture",
    tags: [],
    url: "https://example.test/brick_wall_99",
    downloadable: true,
    files,
  });
}

describe("mapRole and MAP_ROLES", () => {
  it("normalises site names and role names to one role", () => {
    expect(mapRole("Diffuse")).toBe("diffuse");
    expect(mapRole("diff")).toBe("diffuse");
    expect(mapRole("BaseColor")).toBe("diffuse");
    expect(mapRole("nor_gl")).toBe("normal_gl");
    expect(mapRole("NormalGL")).toBe("normal_gl");
    expect(mapRole("nor_dx")).toBe("normal_dx");
    expect(mapRole("Rough")).toBe("roughness");
    expect(mapRole("Metal")).toBe("metalness");
    expect(mapRole("AmbientOcclusion")).toBe("ao");
    expect(mapRole("disp")).toBe("displacement");
    expect(mapRole("Some_Weird_Map")).toBe("some_weird_map");
  });

  it("lists every alias under exactly one role", () => {
    const seen = new Map<string, string>();
    for (const [role, aliases] of Object.entries(MAP_ROLES)) {
      for (const alias of aliases) {
        expect(seen.get(alias), `${alias} appears twice`).toBeUndefined();
        seen.set(alias, role);
        expect(mapRole(alias)).toBe(role);
      }
      expect(mapRole(role)).toBe(role);
    }
  });
});

describe("selectFiles: a model (recorded Poly Haven ArmChair_01, max 4k)", () => {
  let chair: AssetDetails;
  beforeAll(async () => {
    const { ctx } = replayContext();
    chair = (await polyhaven.getAsset("ArmChair_01", ctx))!;
  });

  it("defaults to the one 2k glTF, whose includes carry the companions", () => {
    const files = selectFiles(chair, params());
    expect(names(files)).toEqual(["ArmChair_01_2k.gltf"]);
    expect(files[0]!.includes?.map((i) => i.path)).toContain("ArmChair_01.bin");
  });

  it("picks the asked package", () => {
    expect(names(selectFiles(chair, params({ format: "fbx" })))).toEqual(["ArmChair_01_2k.fbx"]);
    expect(names(selectFiles(chair, params({ format: "blend" })))).toEqual(["ArmChair_01_2k.blend"]);
    expect(names(selectFiles(chair, params({ format: "usd" })))).toEqual(["ArmChair_01_2k.usdc"]);
    expect(names(selectFiles(chair, params({ format: ".FBX", resolution: "1k" })))).toEqual(["ArmChair_01_1k.fbx"]);
  });

  it("falls back to the closest format: same family first", () => {
    expect(names(selectFiles(chair, params({ format: "glb" })))).toEqual(["ArmChair_01_2k.gltf"]);
    expect(names(selectFiles(chair, params({ format: "obj" })))).toEqual(["ArmChair_01_2k.gltf"]);
    // hdr is not there; exr (same family) is: the model's maps as EXR, one per role.
    expect(selectFiles(chair, params({ format: "hdr" })).every((f) => f.format === "exr")).toBe(true);
  });

  it("uses the closest resolution, ties to the smaller", () => {
    expect(names(selectFiles(chair, params({ resolution: "3k" })))).toEqual(["ArmChair_01_2k.gltf"]);
    expect(names(selectFiles(chair, params({ resolution: "8k" })))).toEqual(["ArmChair_01_4k.gltf"]);
    expect(names(selectFiles(chair, params({ resolution: "1k" })))).toEqual(["ArmChair_01_1k.gltf"]);
  });

  it("gives the model's own maps when maps are asked", () => {
    expect(names(selectFiles(chair, params({ maps: "diff,rough" })))).toEqual(["Armchair_01_diff_2k.jpg", "Armchair_01_roughness_2k.jpg"]);
  });

  it("returns every file with all=true", () => {
    expect(selectFiles(chair, params({ all: "true" }))).toHaveLength(66);
  });
});

describe("selectFiles: a texture map set (synthetic)", () => {
  const texture = syntheticTexture();

  it("defaults to one 2k jpg per role, OpenGL normal and not DirectX", () => {
    expect(names(selectFiles(texture, params()))).toEqual([
      "brick_wall_99_diffuse_2k.jpg",
      "brick_wall_99_nor_gl_2k.jpg",
      "brick_wall_99_rough_2k.jpg",
      "brick_wall_99_ao_2k.jpg",
      "brick_wall_99_arm_2k.jpg",
      "brick_wall_99_displacement_2k.jpg",
    ]);
  });

  it("accepts the site's map names, and gives DirectX normals when asked", () => {
    expect(names(selectFiles(texture, params({ maps: "diff,nor_dx,rough" })))).toEqual([
      "brick_wall_99_diffuse_2k.jpg",
      "brick_wall_99_nor_dx_2k.jpg",
      "brick_wall_99_rough_2k.jpg",
    ]);
  });

  it("accepts role names", () => {
    expect(names(selectFiles(texture, params({ maps: "diffuse,roughness", resolution: "4k", format: "png" })))).toEqual([
      "brick_wall_99_diffuse_4k.png",
      "brick_wall_99_rough_4k.png",
    ]);
  });

  it("uses the closest resolution, ties to the smaller", () => {
    const files = selectFiles(texture, params({ resolution: "3k" }));
    expect(files).toHaveLength(6);
    expect(files.every((f) => f.resolution === "2k")).toBe(true);
    expect(selectFiles(texture, params({ resolution: "16k" })).every((f) => f.resolution === "4k")).toBe(true);
  });

  it("picks a package when one is asked", () => {
    expect(names(selectFiles(texture, params({ format: "gltf" })))).toEqual(["brick_wall_99_2k.gltf"]);
  });

  it("never selects a file that needs a login, except with all=true", () => {
    // zip is asked, but the only zip needs a login: the closest other choice wins.
    expect(selectFiles(texture, params({ format: "zip" })).some((f) => f.requiresAuth)).toBe(false);
    const all = selectFiles(texture, params({ all: "1" }));
    expect(all).toHaveLength(7 * 3 * 3 + 6 + 1);
    expect(all.some((f) => f.requiresAuth)).toBe(true);
    const locked = AssetDetails.parse({ ...texture, files: texture.files.filter((f) => f.requiresAuth) });
    expect(selectFiles(locked, params())).toEqual([]);
  });

  it("returns [] when nothing matches", () => {
    expect(selectFiles(texture, params({ maps: "bump,opacity" }))).toEqual([]);
    expect(selectFiles(AssetDetails.parse({ ...texture, files: [] }), params())).toEqual([]);
  });
});

describe("selectFiles: an HDRI (synthetic)", () => {
  // SYNTHETIC: the shape of a Poly Haven HDRI's files (hdri package per resolution + a tonemapped jpg).
  const files: AssetFile[] = ["1k", "2k", "4k", "8k"].flatMap((res) =>
    ["hdr", "exr"].map((format) => ({
      url: `https://files.example.test/sky_${res}.${format}`,
      filename: `sky_${res}.${format}`,
      format,
      resolution: res,
      group: "hdri",
    })),
  );
  files.push({ url: "https://files.example.test/sky.jpg", filename: "sky.jpg", format: "jpg", group: "tonemapped" });
  const hdri = AssetDetails.parse({
    id: "synthetic:sky",
    provider: "synthetic",
    nativeId: "sky",
    title: "Sky (synthetic)",
    type: "hdri",
    tags: [],
    url: "https://example.test/sky",
    downloadable: true,
    files,
  });

  it("defaults to the 2k .hdr, and honours format and resolution", () => {
    expect(names(selectFiles(hdri, params()))).toEqual(["sky_2k.hdr"]);
    expect(names(selectFiles(hdri, params({ format: "exr", resolution: "8k" })))).toEqual(["sky_8k.exr"]);
    expect(names(selectFiles(hdri, params({ format: "jpg" })))).toEqual(["sky.jpg"]);
  });
});
