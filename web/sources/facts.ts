/**
 * A source's facts in words, the same on the list of sources and on a source's page: its pricing,
 * licence, key, filters, its types with the census's count of each, and the period its health covers.
 */
import type { AssetType, FilterKey, Pricing, Provider, SourceCensus, Stats } from "../../core/schemas/index.ts";
import { licenceBadge } from "../lib/format.ts";
import { day } from "../lib/numbers.ts";
import { TYPE_NAMES } from "../search/labels.ts";

export const PRICING: Record<Pricing, string> = { free: "Free", freemium: "Free and paid", paid: "Paid" };

/** Whether the source needs a key, may use one, or neither, and whether this server has it set. */
export type KeyState = { need: "none" } | { need: "optional" | "required"; set: boolean; env: string };

export function keyState(p: Provider): KeyState {
  if (!p.keyEnv) return { need: "none" };
  return { need: p.keyRequired ? "required" : "optional", set: p.keyConfigured === true, env: p.keyEnv };
}

/** The key in a few words: "no key needed", "optional key, set", "required key, not set" … */
export const keyWords = (key: KeyState): string => (key.need === "none" ? "no key needed" : `${key.need} key, ${key.set ? "set" : "not set"}`);

/** The filters and data sorts of the search (core/model/filters.ts) as the search page names them. */
export const FILTER_NAMES: Record<FilterKey, string> = {
  license: "licence",
  commercial: "commercial use",
  attribution: "no credit needed",
  author: "author",
  category: "category",
  format: "format",
  resolution: "resolution",
  maxPolys: "polygon count",
  animated: "animated",
  rigged: "rigged",
  newest: "newest first",
  popular: "most downloaded",
};

/** A licence's name past this length is a sentence of the site's own terms, not a name for a badge. */
const LONGEST_NAME = 24;

/**
 * The source's own licence when it has one for everything, else what its census found, else per
 * asset: a badge's label and colour, and the terms in full when they are too long for the badge.
 */
export function licenceOf(p: Provider, census: SourceCensus | undefined): ReturnType<typeof licenceBadge> & { terms?: string } {
  if (p.license) {
    const badge = licenceBadge(p.license);
    return badge.label.length > LONGEST_NAME ? { ...badge, label: "Own terms", terms: badge.label } : badge;
  }
  const found = Object.keys(census?.byLicense ?? {});
  if (found.length === 1) return { label: found[0]!, kind: "unknown" };
  return { label: found.length > 1 ? `${found.length} licences` : "Per asset", kind: "unknown" };
}

/** Its types, most listed first with their counts when the census has them, else as the source declares them. */
export function typesOf(p: Provider, census: SourceCensus | undefined): { type: string; name: string; count?: number }[] {
  const name = (type: string) => TYPE_NAMES[type as AssetType]?.many ?? type;
  if (census && Object.keys(census.byType).length > 0) {
    return Object.entries(census.byType)
      .sort(([, a], [, b]) => b - a)
      .map(([type, count]) => ({ type, name: name(type), count }));
  }
  return p.assetTypes.map((type) => ({ type, name: name(type) }));
}

/** The period the health numbers cover: a day from a metrics system, else this process's life. */
export const healthPeriod = (stats: Stats | undefined): string =>
  stats?.source === "process" && stats.since ? `since this server started on ${day(stats.since)}` : "over the last 24 hours";
