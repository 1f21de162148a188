import type { AssetType } from "../schemas/index.ts";

/**
 * Words that name a kind of asset. In a query such a word is no longer required (a font's record
 * seldom says "font"): it becomes a soft boost of its asset types (SCORING.weights.type) and still
 * scores where a record does hold it. The `type` parameter stays the hard filter. Entries go through
 * the same analysis as queries, so plurals ("fonts", "icons", "sounds") need no entries.
 */
export const TYPE_WORDS: Readonly<Record<string, readonly AssetType[]>> = {
  font: ["font"],
  typeface: ["font"],
  hdri: ["hdri"],
  hdr: ["hdri"],
  skybox: ["hdri"],
  texture: ["texture"],
  material: ["material"],
  pbr: ["material", "texture"],
  icon: ["ui"],
  ui: ["ui"],
  gui: ["ui"],
  hud: ["ui"],
  sound: ["audio"],
  sfx: ["audio"],
  audio: ["audio"],
  music: ["audio"],
  model: ["model"],
  mesh: ["model"],
  pack: ["pack"],
  kit: ["pack"],
  bundle: ["pack"],
  sprite: ["sprite"],
  spritesheet: ["sprite"],
  tileset: ["sprite"],
};
