/**
 * What a source declares of the search's filters and sorts, and turning them into a site's own parameters.
 * A filter goes upstream whole or not at all: a site asked for only some of the wanted values would silently
 * narrow the answer, so when one value has no upstream form the parameter is left out and the search filters
 * the listings (core/model/filters.ts) instead.
 */
import type { FilterKey, SourceFiltering } from "../../core/model/filters.ts";
import { licenseFamily } from "../../core/model/license.ts";

/** The search's filters and sort, as a source reads them from its query. */
export type { SearchFilters, Sort } from "../../core/model/filters.ts";

/** The site takes no filter or order and its listings carry nothing a filter reads: a search asking for one skips the source. */
export const NO_FILTERS: SourceFiltering = { upstream: [], listed: [] };

/** What listings that carry a licence record (an SPDX id with its terms) let the search check. */
export const LICENSE_TERMS = ["license", "commercial", "attribution"] as const satisfies readonly FilterKey[];

/** Every value mapped, or undefined when there is nothing to map or one value has no upstream form. */
export function mapAll<T>(values: readonly string[] | undefined, map: (value: string) => T | undefined): T[] | undefined {
  if (!values?.length) return undefined;
  const mapped = values.map(map);
  return mapped.every((m) => m !== undefined) ? [...new Set(mapped as T[])] : undefined;
}

/** The one distinct value of a list; undefined for none or several: a site parameter of one value cannot say "any of these". */
export function sole<T>(values: readonly T[] | undefined): T | undefined {
  const distinct = new Set(values);
  return distinct.size === 1 ? [...distinct][0] : undefined;
}

/** The upstream form of the one wanted value; undefined when several are wanted or one has no form. */
export const mapOne = <T>(values: readonly string[] | undefined, map: (value: string) => T | undefined): T | undefined => sole(mapAll(values, map));

/** A `license` token's Creative Commons code without version (cc-by-sa-4.0 or cc-by-sa → "by-sa", cc0 → "cc0"); undefined for other licences. */
export function ccCode(token: string): string | undefined {
  const family = licenseFamily(token);
  if (family === "cc0") return "cc0";
  return /^cc-by(-nc)?(-sa|-nd)?$/.test(family) ? family.slice(3) : undefined;
}
