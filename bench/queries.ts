/** The index-only mix: ten everyday queries over the indexed sources' kinds (textures, models, fonts, icon sets, packs). */
export const QUERIES = ["rock", "wood floor", "brick wall", "arm chair", "metal plate", "sans serif", "handwriting", "arrows", "nature", "tree"];
