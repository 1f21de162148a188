/**
 * Style words of a font family for search, from its category (as Fontsource and Google Fonts file it) and its name:
 * - `handwriting` → "handwritten": the category is handwritten lettering, and people ask for handwritten fonts;
 * - `monospace`, or Mono / Monospace / Monospaced as a word of the name → "monospace": some monospaced families are filed
 *   under another category (Atkinson Hyperlegible Mono and the Fusion Pixel … Monospaced families under sans-serif);
 * - Pixel in the name (Fusion Pixel, Pixelify Sans, Rubik Pixels) → "pixel": no category says it.
 */
export function fontStyleTags(family: string, category: string | undefined): string[] {
  const monospace = category === "monospace" || /\bmono(space|spaced)?\b/i.test(family);
  return [category === "handwriting" && "handwritten", monospace && "monospace", /pixel/i.test(family) && "pixel"].filter((word) => word !== false);
}
