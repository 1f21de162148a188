/**
 * The search's filters and sorts over asset records: what each one keeps, which record field it
 * reads (so a source that publishes no such field is skipped, never answered wrongly), and the
 * orders of `sort`. The index, the live sources' answers and the facets all go through here.
 */

import type { Asset, License } from "../schemas/index.ts";
import { fold } from "../text/words.ts";
import { LICENSES, licenseFamily } from "./license.ts";

/** Validated filters of one search; an absent one does not narrow. */
export interface SearchFilters {
  /** Lower-case SPDX ids and licence families (cc0, cc-by-4.0, cc-by-sa, ofl …); any of them. */
  license?: readonly string[];
  commercial?: boolean;
  attribution?: boolean;
  /** Folded (lower case, no accents) author name, matched whole. */
  author?: string;
  /** Folded category names; any of them. */
  category?: readonly string[];
  /** Lower-case file formats without a dot; any of them. */
  format?: readonly string[];
  /** Minimum resolution in k (4 = 4k): an asset offering this or more. */
  resolution?: number;
  maxPolys?: number;
  animated?: boolean;
  rigged?: boolean;
}
export type FilterName = keyof SearchFilters;

export const SORTS = ["relevance", "newest", "name", "popular"] as const;
export type Sort = (typeof SORTS)[number];

/** What a source may be asked beyond the words: a filter, or a sort that needs data ("name" needs only titles). */
export type FilterKey = FilterName | "newest" | "popular";

/** How a live or link source meets filters and sorts. Indexed sources need no declaration: the index shows what their records hold. */
export interface SourceFiltering {
  /** The site applies these itself: the source passes them in its request (or, for a link source, in its searchUrl). */
  upstream: readonly FilterKey[];
  /** Its listings carry the field these read, so the search applies them to what comes back. */
  listed: readonly FilterKey[];
}

/** Short Creative Commons forms (Openverse's `by`, `by-sa` …) name the same families as `cc-by`, `cc-by-sa`. */
const CC_SHORT = /^(by(-nc)?(-sa|-nd)?)$/;

/** Every id and family the `license` filter accepts, lower case: SPDX ids, our own ids, families. */
export const LICENSE_TOKENS: readonly string[] = [...new Set(Object.keys(LICENSES).flatMap((id) => [licenseFamily(id), id.toLowerCase()]))].sort();

/** A `license` value in the form the filter compares, or undefined when the service does not know it. */
export function licenseToken(raw: string): string | undefined {
  const token = raw.trim().toLowerCase();
  const named = CC_SHORT.test(token) ? `cc-${token}` : token;
  return LICENSE_TOKENS.includes(named) ? named : undefined;
}

/** A format as filters and facets compare it: lower case, no leading dot. */
export const formatName = (format: string): string => format.trim().toLowerCase().replace(/^\./, "");

/** `4k` → 4; undefined for anything else. */
export function resolutionK(raw: string): number | undefined {
  const m = /^(\d{1,3})\s*k$/i.exec(raw.trim());
  return m ? Number(m[1]) : undefined;
}

const hasLicenseFlag = (flag: "commercialUse" | "attributionRequired") => (a: Asset) => typeof a.license?.[flag] === "boolean";

/** The record field each filter and data sort reads: a record without it never passes. */
const CARRIES: Record<FilterKey, (a: Asset) => boolean> = {
  license: (a) => Boolean(a.license?.spdx),
  commercial: hasLicenseFlag("commercialUse"),
  attribution: hasLicenseFlag("attributionRequired"),
  author: (a) => Boolean(a.author),
  category: (a) => Boolean(a.categories?.length),
  format: (a) => Boolean(a.formats?.length),
  resolution: (a) => a.resolutions?.some((r) => resolutionK(r) !== undefined) === true,
  maxPolys: (a) => a.polyCount !== undefined,
  animated: (a) => a.animated !== undefined,
  rigged: (a) => a.rigged !== undefined,
  newest: (a) => a.createdAt !== undefined,
  popular: (a) => a.downloads !== undefined,
};

/** Every filter key, in the order of the search's parameters. */
export const FILTER_KEYS = Object.keys(CARRIES) as FilterKey[];

/** Whether the record holds the field `key` reads. */
export const carries = (asset: Asset, key: FilterKey): boolean => CARRIES[key](asset);

/** What each filter keeps, given that the record carries its field. */
const KEEPS: { [F in FilterName]-?: (a: Asset, wanted: NonNullable<SearchFilters[F]>) => boolean } = {
  license: (a, wanted) => {
    // SPDX writes GPL-3.0-only where the licence table (and so the filter) says GPL-3.0.
    const id = a.license!.spdx!.toLowerCase().replace(/-only$/, "");
    return wanted.includes(id) || wanted.includes(licenseFamily(id));
  },
  commercial: (a, wanted) => a.license!.commercialUse === wanted,
  attribution: (a, wanted) => a.license!.attributionRequired === wanted,
  author: (a, wanted) => fold(a.author!.trim()) === wanted,
  category: (a, wanted) => a.categories!.some((c) => wanted.includes(fold(c.trim()))),
  format: (a, wanted) => a.formats!.some((f) => wanted.includes(formatName(f))),
  resolution: (a, wanted) => a.resolutions!.some((r) => (resolutionK(r) ?? 0) >= wanted),
  maxPolys: (a, wanted) => a.polyCount! <= wanted,
  animated: (a, wanted) => a.animated === wanted,
  rigged: (a, wanted) => a.rigged === wanted,
};

/** Every filter name, in the order of the search's parameters. */
const FILTER_NAMES = Object.keys(KEEPS) as FilterName[];

/** The filters among a search's parameters, only the set ones. */
export const pickFilters = (params: SearchFilters): SearchFilters =>
  Object.fromEntries(FILTER_NAMES.filter((name) => params[name] !== undefined).map((name) => [name, params[name]]));

/** The filters that are set, by name. */
export const activeFilters = (filters: SearchFilters): FilterName[] => (Object.keys(filters) as FilterName[]).filter((name) => filters[name] !== undefined);

/** The filters and the data sort a search asks of every source. */
export function asked(filters: SearchFilters, sort: Sort): FilterKey[] {
  const keys: FilterKey[] = activeFilters(filters);
  if (sort === "newest" || sort === "popular") keys.push(sort);
  return keys;
}

/** Whether the record passes every filter in `names` (all the set ones by default). */
export function passesFilters(asset: Asset, filters: SearchFilters, names: readonly FilterName[] = activeFilters(filters)): boolean {
  for (const name of names) {
    const wanted = filters[name];
    if (wanted === undefined) continue;
    if (!CARRIES[name](asset) || !(KEEPS[name] as (a: Asset, w: unknown) => boolean)(asset, wanted)) return false;
  }
  return true;
}

const LICENSE_FILTERS = ["license", "commercial", "attribution"] as const;

/** Why no asset of a source published under one licence can pass the licence filters, or undefined when some can. */
export function licenseRefusal(license: License, filters: SearchFilters): string | undefined {
  const every = { license } as Asset;
  const key = LICENSE_FILTERS.find((k) => filters[k] !== undefined && carries(every, k) && !passesFilters(every, filters, [k]));
  return key && `every asset is ${license.spdx ?? license.name}, which ${key}=${String(filters[key])} leaves out`;
}

/**
 * Index hits in the order of a non-relevance sort. Sorted by date or name, a weak partial match
 * would stand anywhere, so only the hits holding every word are kept when there are some.
 */
export function sortHits<T extends { asset: Asset; match: { coverage: number } }>(hits: T[], sort: Sort): T[] {
  if (sort === "relevance") return hits;
  const whole = hits.filter((h) => h.match.coverage === 1);
  return (whole.length ? whole : [...hits]).sort((a, b) => compareBySort(sort, a.asset, b.asset));
}

/** What the service says when a source cannot apply `key` at all. */
export function cannotApply(key: FilterKey): string {
  return key === "newest" || key === "popular"
    ? `cannot sort=${key}: publishes no ${key === "newest" ? "dates" : "download counts"}`
    : `cannot filter by ${key}: publishes no ${FIELD_NAMES[key]}`;
}

const FIELD_NAMES: Record<FilterName, string> = {
  license: "licences",
  commercial: "licence terms",
  attribution: "licence terms",
  author: "authors",
  category: "categories",
  format: "file formats",
  resolution: "resolutions",
  maxPolys: "polygon counts",
  animated: "animation flags",
  rigged: "rig flags",
};

const compareNames = new Intl.Collator("en", { sensitivity: "base", numeric: true }).compare;

/**
 * The order of a non-relevance sort between two records, 0 where it cannot tell (the relevance
 * order then stands): newest first, name A→Z, most downloaded first; a record without the field
 * goes after those with it.
 */
export function compareBySort(sort: Sort, a: Asset, b: Asset): number {
  switch (sort) {
    case "newest":
      return presentFirst(a.createdAt, b.createdAt, (x, y) => (y > x ? 1 : y < x ? -1 : 0));
    case "popular":
      return presentFirst(a.downloads, b.downloads, (x, y) => y - x);
    case "name":
      return compareNames(a.title, b.title);
    default:
      return 0;
  }
}

/** `compare` when both values are there, else the one that has its value first. */
function presentFirst<T>(a: T | undefined, b: T | undefined, compare: (a: T, b: T) => number): number {
  if (a === undefined || b === undefined) return Number(a === undefined) - Number(b === undefined);
  return compare(a, b);
}
