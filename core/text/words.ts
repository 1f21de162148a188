/**
 * The words of a text, folded: split at spaces, punctuation, symbols and underscores, and between
 * the humps of camelCase ("ArmChair_01" → arm, chair, 01), so slugs and titles read alike; then
 * lower-cased with accents removed ("Café" → cafe), so a query typed without them still matches.
 */
export function words(text: string): string[] {
  return text
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .split(/[\s\p{P}\p{S}_]+/u)
    .filter(Boolean)
    .map(fold);
}

/** Lower case without diacritics. */
export const fold = (word: string): string => word.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "");
