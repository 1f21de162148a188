/**
 * The facets of a search: how many of the merged results (every index hit and every live listing,
 * de-duplicated, before paging) fall in each type, licence family, source and file format.
 */
import { formatName } from "../model/filters.ts";
import { licenseFamily } from "../model/license.ts";
import type { Asset, FacetCount, Facets } from "../schemas/index.ts";

/** Most first, then by value. */
function counted(assets: readonly Asset[], valuesOf: (a: Asset) => readonly string[]): FacetCount[] {
  const counts = new Map<string, number>();
  for (const a of assets) for (const v of new Set(valuesOf(a))) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
}

/** A licence's family (cc0, cc-by …); `other` for a licence without an SPDX id, `unknown` for none. */
const familyOf = (a: Asset): string => (a.license?.spdx ? licenseFamily(a.license.spdx) : a.license ? "other" : "unknown");

export function countFacets(assets: readonly Asset[]): Facets {
  return {
    total: assets.length,
    type: counted(assets, (a) => [a.type]),
    license: counted(assets, (a) => [familyOf(a)]),
    source: counted(assets, (a) => [a.provider]),
    format: counted(assets, (a) => (a.formats?.length ? a.formats.map(formatName) : ["unknown"])),
  };
}
