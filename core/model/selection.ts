/**
 * File selection: from every file of an asset, pick the ones a person asked for.
 *
 * `selectFiles(details, { format, resolution, maps, all })` is pure: it looks only at `details.files`
 * and `details.type`, never at the network.
 *
 * Rules, in order:
 * 1. `all` → every file, as listed (even files that need a login: the list is informative).
 * 2. Files with `requiresAuth: true` are never selected otherwise.
 * 3. The files are grouped into *options*, one per format. An option is either a **map set** (files
 *    that carry a `mapType`: one file per map role is taken) or a **package** (anything else: one
 *    file is taken, whose `includes` carry its companions; e.g. a glTF with its .bin and textures).
 *    When `maps` is given, only map sets are considered.
 * 4. The option: the asked `format` when present; else the closest one, that is the same format
 *    family first (glb → gltf, tif → png, exr → hdr …), then the asset type's default order
 *    (`DEFAULT_FORMAT_ORDER`), then the order the source listed the files in.
 * 5. The resolution: the closest to the asked one (default `2k`), ties going to the smaller
 *    (3k with 2k and 4k available → 2k). Files without a resolution fit any request, but a file with
 *    the exact resolution wins over them.
 * 6. Map sets: one file per role (`MAP_ROLES`), in the table's order. Without `maps`, every role
 *    except `normal_dx` when a `normal_gl` exists (OpenGL normals before DirectX). With `maps`
 *    (site names or role names, e.g. `diff,nor_gl,rough` or `diffuse,roughness`), exactly those roles;
 *    a normal asked in one convention falls back to the other when only that one exists.
 * 7. Nothing matches → `[]` (the route answers 404).
 */
import type { AssetDetails, AssetFile, AssetType, FileParams } from "../schemas/index.ts";

/**
 * Texture map roles and the names sites give them. A role's own name is always accepted too.
 * Matching ignores case and every character that is not a letter or digit (`Nor_GL` = `norgl`).
 * Generic `normal` counts as DirectX, the convention of most sites that do not say.
 */
export const MAP_ROLES = {
  diffuse: ["diff", "diffuse", "albedo", "basecolor", "base_color", "color", "col"],
  normal_gl: ["nor_gl", "normal_gl", "normalgl"],
  normal_dx: ["nor_dx", "normal_dx", "normaldx", "normal"],
  roughness: ["rough", "roughness"],
  metalness: ["metal", "metallic", "metalness"],
  ao: ["ao", "ambientocclusion", "ambient_occlusion", "occlusion"],
  arm: ["arm"],
  displacement: ["disp", "displacement", "height"],
  bump: ["bump"],
  opacity: ["alpha", "opacity", "mask"],
  specular: ["spec", "specular"],
  emission: ["emissive", "emission"],
  translucency: ["translucency", "translucent"],
} as const satisfies Record<string, readonly string[]>;

export type MapRole = keyof typeof MAP_ROLES;

const squash = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

const ROLE_BY_ALIAS = new Map<string, string>(
  Object.entries(MAP_ROLES).flatMap(([role, aliases]) => [role, ...aliases].map((a) => [squash(a), role] as const)),
);

const ROLE_ORDER: readonly string[] = Object.keys(MAP_ROLES);

/** The role of a map as a site or a person names it (`nor_gl` → `normal_gl`); unknown names are kept, lower-cased. */
export function mapRole(name: string): string {
  return ROLE_BY_ALIAS.get(squash(name)) ?? name.trim().toLowerCase();
}

/** Default preference of formats per asset type; formats not listed follow in the source's own order. */
export const DEFAULT_FORMAT_ORDER: Record<AssetType, readonly string[]> = {
  model: ["gltf", "glb", "fbx", "blend", "obj", "usd", "zip"],
  texture: ["jpg", "png", "exr", "zip"],
  material: ["jpg", "png", "exr", "zip"],
  hdri: ["hdr", "exr", "jpg"],
  sprite: ["zip"],
  ui: ["zip"],
  audio: ["zip"],
  font: ["zip"],
  pack: ["zip"],
  other: ["zip"],
};

/** Format families, each in its own order of preference: "closest format" means same family first. */
const FAMILIES: readonly (readonly string[])[] = [
  ["gltf", "glb", "fbx", "blend", "obj", "usd", "usdz", "dae", "stl", "3ds", "ply", "max", "c4d", "ma", "mb"],
  ["jpg", "png", "webp", "tga", "tiff", "bmp", "gif"],
  ["hdr", "exr"],
  ["zip", "7z", "rar", "tar", "gz"],
  ["ogg", "wav", "mp3", "flac", "aiff"],
  ["woff2", "woff", "ttf", "otf"],
  ["svg", "eps", "pdf"],
];

/** Different spellings of one format. */
const FORMAT_ALIASES: Record<string, string> = { jpeg: "jpg", tif: "tiff", usdc: "usd", usda: "usd", aif: "aiff" };

const normFormat = (f: string) => {
  const lower = f.trim().toLowerCase().replace(/^\./, "");
  return FORMAT_ALIASES[lower] ?? lower;
};

const familyOf = (format: string) => FAMILIES.findIndex((family) => family.includes(format));

/** `2k` → 2, `2K` → 2, `2048` → 2; undefined when the text is no resolution. */
function resolutionK(raw: string | undefined): number | undefined {
  if (!raw) return undefined;
  const k = /^(\d+(?:\.\d+)?)\s*k$/i.exec(raw.trim());
  if (k) return Number(k[1]);
  const px = /^(\d{3,5})(?:\s*px)?$/i.exec(raw.trim());
  return px ? Number(px[1]) / 1024 : undefined;
}

/** The file among `files` whose resolution is closest to `wantK`; ties go to the smaller, then to the first listed. */
function closestResolution(files: AssetFile[], wantK: number): AssetFile | undefined {
  let best: AssetFile | undefined;
  let bestKey: [number, number] = [Infinity, Infinity];
  for (const file of files) {
    const k = resolutionK(file.resolution);
    // A file without a resolution fits any request, after every file that has one.
    const key: [number, number] = k === undefined ? [Number.MAX_VALUE, 0] : [Math.abs(k - wantK), k];
    if (key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
      best = file;
      bestKey = key;
    }
  }
  return best;
}

interface Option {
  format: string;
  /** Position of the option's first file in the source's list. */
  firstSeen: number;
  mapSet: boolean;
  files: AssetFile[];
}

function groupOptions(files: AssetFile[]): Option[] {
  const byFormat = new Map<string, Option>();
  files.forEach((file, index) => {
    const format = normFormat(file.format);
    const option = byFormat.get(format) ?? { format, firstSeen: index, mapSet: false, files: [] };
    option.files.push(file);
    byFormat.set(format, option);
  });
  for (const option of byFormat.values()) {
    // Map files and package files of one format (rare): the map set wins, the packages stay reachable with `all`.
    const maps = option.files.filter((f) => f.mapType);
    if (maps.length) {
      option.mapSet = true;
      option.files = maps;
    }
  }
  return [...byFormat.values()];
}

/** Picks the option for the asked format, or the closest (same family, then default order, then listing order). */
function pickOption(options: Option[], type: AssetType, wanted: string | undefined): Option | undefined {
  const order = DEFAULT_FORMAT_ORDER[type] ?? [];
  const rank = (format: string) => {
    const i = order.indexOf(format);
    return i === -1 ? order.length : i;
  };
  const wantedFamily = wanted === undefined ? -1 : familyOf(wanted);
  const familyRank = (format: string) => {
    if (wantedFamily === -1) return 0;
    const family = FAMILIES[wantedFamily] ?? [];
    // Same family: by the family's own order of preference; other families after.
    return family.includes(format) ? family.indexOf(format) : family.length;
  };
  // Texture-like assets prefer a map set over a package when the default order does not decide.
  const mapsFirst = type === "texture" || type === "material";
  return [...options].sort(
    (a, b) =>
      Number(b.format === wanted) - Number(a.format === wanted) ||
      familyRank(a.format) - familyRank(b.format) ||
      rank(a.format) - rank(b.format) ||
      (mapsFirst ? Number(b.mapSet) - Number(a.mapSet) : 0) ||
      a.firstSeen - b.firstSeen,
  )[0];
}

/** One file per role of a map set, in role order. */
function selectMaps(files: AssetFile[], wantK: number, maps: string[] | undefined): AssetFile[] {
  const byRole = new Map<string, AssetFile[]>();
  for (const file of files) {
    const role = mapRole(file.mapType ?? "");
    byRole.set(role, [...(byRole.get(role) ?? []), file]);
  }
  let roles: string[];
  if (maps) {
    const other: Record<string, string> = { normal_gl: "normal_dx", normal_dx: "normal_gl" };
    roles = maps.map(mapRole).map((role) => (byRole.has(role) ? role : other[role] && byRole.has(other[role]) ? other[role] : role));
  } else {
    roles = [...byRole.keys()].filter((role) => !(role === "normal_dx" && byRole.has("normal_gl")));
  }
  const known = (role: string) => {
    const i = ROLE_ORDER.indexOf(role);
    return i === -1 ? ROLE_ORDER.length : i;
  };
  return [...new Set(roles)]
    .filter((role) => byRole.has(role))
    .sort((a, b) => known(a) - known(b))
    .map((role) => closestResolution(byRole.get(role)!, wantK)!)
    .filter(Boolean);
}

/** The files to serve for `params` (see the rules at the top of this file). */
export function selectFiles(details: AssetDetails, params: Partial<FileParams> = {}): AssetFile[] {
  if (params.all) return [...details.files];
  const usable = details.files.filter((f) => !f.requiresAuth);
  let options = groupOptions(usable);
  if (params.maps) options = options.filter((o) => o.mapSet);
  const wanted = params.format ? normFormat(params.format) : undefined;
  const option = pickOption(options, details.type, wanted);
  if (!option) return [];
  const wantK = resolutionK(params.resolution) ?? 2;
  if (option.mapSet) return selectMaps(option.files, wantK, params.maps);
  const file = closestResolution(option.files, wantK);
  return file ? [file] : [];
}
