/**
 * Which interactive preview an asset gets, from its type and its files, and the selection that
 * preview asks `/files` (and then `/raw`) for: always a small one, since it is fetched on opening.
 */
import type { AssetDetails, AssetFile } from "../../../core/schemas/index.ts";
import { type Choices, directFiles, resolutionK } from "../choices.ts";

export type PreviewKind = "model" | "panorama" | "texture" | "audio" | "font";

export interface PreviewPlan {
  kind: PreviewKind;
  choices: Choices;
}

/** Formats each preview can show, in order of preference (the first listed wins a tie). */
const FORMATS: Record<PreviewKind, readonly string[]> = {
  // A .glb is one file; a .gltf brings its companions through the raw endpoint's layout.
  model: ["glb", "gltf"],
  // three.js decodes both; .hdr (RGBE) is usually the smaller of the two at one resolution.
  panorama: ["hdr", "exr"],
  // What an <img> shows; never the EXR or TIFF masters.
  texture: ["jpg", "jpeg", "png", "webp"],
  // What Chromium, Firefox and Safari play between them; the player says so when one cannot.
  audio: ["mp3", "ogg", "m4a", "aac", "wav", "opus", "flac", "webm"],
  font: ["woff2", "woff", "ttf", "otf"],
};

const formatOf = (f: AssetFile) => f.format.trim().toLowerCase().replace(/^\./, "");

/**
 * The file to preview among `files` in one of `formats`: the smallest resolution, then the
 * preferred format (a map set's files differ in size by what they show: a flat metalness PNG
 * is smaller than a colour JPEG, yet the JPEG set is the lighter one), then the smallest file.
 */
function smallest(files: readonly AssetFile[], formats: readonly string[]): AssetFile | undefined {
  const rank = (f: AssetFile) => formats.indexOf(formatOf(f));
  return files
    .filter((f) => rank(f) !== -1)
    .sort(
      (a, b) =>
        (resolutionK(a.resolution) ?? 0) - (resolutionK(b.resolution) ?? 0) || rank(a) - rank(b) || (a.sizeBytes ?? Infinity) - (b.sizeBytes ?? Infinity),
    )[0];
}

function kindOf(details: AssetDetails, files: readonly AssetFile[]): PreviewKind | undefined {
  switch (details.type) {
    case "hdri":
      return "panorama";
    case "texture":
    case "material":
      return files.some((f) => f.mapType && FORMATS.texture.includes(formatOf(f))) ? "texture" : undefined;
    case "audio":
      return "audio";
    case "font":
      return "font";
    default:
      // Models, and packs or others that carry a glTF.
      return files.some((f) => FORMATS.model.includes(formatOf(f))) ? "model" : undefined;
  }
}

/** The preview of `details`, or undefined when none applies (no direct files, or none a browser can show). */
export function previewPlan(details: AssetDetails): PreviewPlan | undefined {
  if (!details.downloadable) return undefined;
  const files = directFiles(details.files);
  const kind = kindOf(details, files);
  if (!kind) return undefined;
  const candidates = kind === "texture" ? files.filter((f) => f.mapType) : files;
  const file = smallest(candidates, FORMATS[kind]);
  if (!file) return undefined;
  return { kind, choices: { format: formatOf(file), resolution: file.resolution?.toLowerCase() } };
}
