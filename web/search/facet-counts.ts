/**
 * A filter option's count, from the facets of the search on the page. A count is shown only where
 * the facets say what choosing the option would give: an option that narrows the search (a
 * dimension not yet filtered, or a filter that adds a condition) is counted; one that would widen
 * a list already chosen (a second type, a second source) is not, since the facets counted only
 * what the list kept.
 */
import type { FacetCount, Facets } from "../../core/schemas/index.ts";

export type FacetName = Exclude<keyof Facets, "total">;

export const countOf = (counts: FacetCount[] | undefined, value: string): number => counts?.find((c) => c.value === value)?.count ?? 0;

/** The count beside an option of a comma-list filter (`chosen` is the list in the address). */
export function listOptionCount(facets: Facets | undefined, name: FacetName, value: string, chosen: string[]): number | undefined {
  if (!facets) return undefined;
  if (chosen.length === 0 || chosen.includes(value)) return countOf(facets[name], value);
  return undefined;
}

/**
 * The options of a comma-list filter: every value the facets counted, most first (to `max`), and
 * every value chosen, counted or not, so a choice can always be taken back.
 */
export function listOptions(facets: Facets | undefined, name: FacetName, chosen: string[], max: number): string[] {
  const counted = (facets?.[name] ?? []).slice(0, max).map((c) => c.value);
  return [...counted, ...chosen.filter((v) => !counted.includes(v))];
}
