/**
 * Turning a search's filters into a site's own parameters. A filter goes upstream whole or not at
 * all: a site asked for only some of the wanted values would silently narrow the answer, so when
 * one value has no upstream form the parameter is left out and the search filters the listings
 * (core/model/filters.ts) instead.
 */
import { licenseFamily } from "../../core/model/license.ts";

/** Every value mapped, or undefined when there is nothing to map or one value has no upstream form. */
export function mapAll<T>(values: readonly string[] | undefined, map: (value: string) => T | undefined): T[] | undefined {
  if (!values?.length) return undefined;
  const mapped = values.map(map);
  return mapped.every((m) => m !== undefined) ? [...new Set(mapped as T[])] : undefined;
}

/** A `license` token's Creative Commons code without version (cc-by-sa-4.0 or cc-by-sa → "by-sa", cc0 → "cc0"); undefined for other licences. */
export function ccCode(token: string): string | undefined {
  const family = licenseFamily(token);
  if (family === "cc0") return "cc0";
  return /^cc-by(-nc)?(-sa|-nd)?$/.test(family) ? family.slice(3) : undefined;
}
