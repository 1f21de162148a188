/**
 * Curated synonyms, expanded at query time (core/relevance/query-plan.ts) with a lower weight than the
 * searcher's own words (SCORING.kinds.synonym), so a record holding the word itself still ranks
 * first. Entries are written as people type them: they go through the same analysis as queries and
 * records (folding, stemming, pairs written together), so plurals, capitals and "low-poly" versus
 * "lowpoly" need no entries. A query side may be a phrase of several words (it then stands for all
 * of them); a record side is one word or two (two are matched as written together, see runTerms).
 */

/** Each member finds every other member. */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  // furniture and props
  ["sofa", "couch", "settee"],
  ["armchair", "easy chair"],
  ["lamp", "light fixture"],
  // audio
  ["sound", "audio", "sfx", "sound effect"],
  ["music", "soundtrack"],
  // seasons and themes
  ["christmas", "xmas"],
  ["halloween", "spooky"],
  ["scifi", "science fiction"],
  ["cartoon", "toon"],
  // packaging
  ["kit", "pack", "bundle"],
  ["tileset", "tilemap"],
  // materials and surfaces
  ["stone", "rock"],
  ["wood", "wooden", "timber"],
  ["gold", "golden"],
  ["metal", "metallic"],
  ["concrete", "cement"],
  ["fabric", "cloth", "textile"],
  ["asphalt", "tarmac"],
  ["pavement", "sidewalk"],
  ["leaf", "leaves", "foliage"],
  // -y adjectives the stemmer keeps apart from their noun ("mossy" → mossi, "moss" → moss)
  ["moss", "mossy"],
  ["rock", "rocky"],
  ["sand", "sandy"],
  ["rust", "rusty"],
  ["dirt", "dirty"],
  ["mud", "muddy"],
  ["snow", "snowy"],
  ["cloud", "cloudy"],
  ["fog", "foggy"],
  ["grass", "grassy"],
  // places and scenes
  ["city", "urban", "town"],
  ["indoor", "interior"],
  ["outdoor", "exterior"],
  ["ocean", "sea"],
  ["beach", "shore", "coast"],
  ["road", "street"],
  ["path", "pathway", "trail"],
  // things
  ["car", "automobile"],
  ["boat", "ship"],
  ["plane", "airplane", "aircraft"],
  ["spaceship", "starship"],
  ["human", "person", "people"],
  // fonts and icons
  ["font", "typeface"],
  ["handwritten", "handwriting"],
  ["icon", "glyph", "pictogram"],
  ["emoji", "emoticon", "smiley"],
  ["cursor", "pointer"],
  ["crosshair", "reticle"],
  ["hdri", "hdr"],
  ["ui", "gui", "interface"],
];

/** One way: the key also finds these, not the other way round (a broader, narrower or related term). */
export const SYNONYM_EXPANSIONS: Readonly<Record<string, readonly string[]>> = {
  sky: ["skybox"],
  christmas: ["holiday"],
  "code font": ["monospace"],
  "coding font": ["monospace"],
  "programming font": ["monospace"],
  "terminal font": ["monospace"],
  script: ["handwriting"],
  cursive: ["handwriting"],
  calligraphy: ["handwriting"],
  boulder: ["rock"],
  pebble: ["rock"],
  steel: ["metal"],
  iron: ["metal"],
  car: ["vehicle"],
  truck: ["vehicle"],
  building: ["architecture"],
  // parts of a user interface find UI assets
  button: ["ui"],
  menu: ["ui"],
  hud: ["ui"],
  futuristic: ["scifi"],
  dusk: ["sunset"],
  dawn: ["sunrise"],
  overcast: ["cloudy"],
};
