/**
 * Style words of a font family for search, by rules on what the font libraries publish about it:
 * its category (Fontsource and Google Fonts file every family under one of serif, sans-serif,
 * display, handwriting, monospace, plus Fontsource's icons and other) and its family name.
 * - category `handwriting` → "handwritten": the category is handwritten lettering, and people ask
 *   for handwritten fonts;
 * - category `monospace`, or Mono / Monospace / Monospaced as a word of the name → "monospace":
 *   some monospaced families are filed under another category (Atkinson Hyperlegible Mono and the
 *   Fusion Pixel … Monospaced families under sans-serif);
 * - Pixel in the name (Fusion Pixel, Pixelify Sans, Rubik Pixels) → "pixel": no category says it.
 */
export function fontStyleTags(family: string, category: string | undefined): string[] {
  const out: string[] = [];
  if (category === "handwriting") out.push("handwritten");
  if (category === "monospace" || /\bmono(space|spaced)?\b/i.test(family)) out.push("monospace");
  if (/pixel/i.test(family)) out.push("pixel");
  return out;
}
