import type { Source } from "../core/model/source.ts";
import type { Catalog, CountWithBound, SourceCensus } from "../core/schemas/index.ts";

const add = (into: Record<string, number>, from: Record<string, number> | undefined) => {
  for (const [k, v] of Object.entries(from ?? {})) into[k] = (into[k] ?? 0) + v;
};

/** A line kept for a source that has never been counted (see pipeline/run.ts `uncounted`). */
export const neverCounted = (c: SourceCensus): boolean => c.stale !== undefined && c.stale.since === undefined;

const bound = (count: number, atLeast: boolean): CountWithBound => (atLeast ? { count, atLeast } : { count });

/**
 * Sums the per-source census into the Catalog.
 * Units: a listing is one entry on a site, a single asset or a pack; `listings` adds them as
 * listings and never expands a pack into its assets (each source says its `unit`).
 * Bounds: a total is `atLeast` when any source's count is capped, or when a source does not say
 * the part being summed (for example no free count): then the sum is a lower bound.
 * directDownload: listings of sources that serve plain file downloads, counting only their free
 * listings when they also sell paid ones.
 * A source never counted (`stale` without `since`) keeps its line but adds nothing, and makes the
 * totals lower bounds; `sourcesCounted` counts the others.
 */
export function buildCatalog(censuses: SourceCensus[], sources: readonly Source[], countedAt: string): Catalog {
  const byId = new Map(sources.map((s) => [s.id, s]));
  let listings = 0,
    free = 0,
    cc0 = 0,
    direct = 0,
    added = 0,
    counted = 0;
  let listingsAtLeast = false,
    freeAtLeast = false,
    cc0AtLeast = false,
    directAtLeast = false;
  const byType: Record<string, number> = {};
  const byTypeAtLeast = new Set<string>();
  const byLicense: Record<string, number> = {};

  for (const c of censuses) {
    const source = byId.get(c.id);
    if (neverCounted(c)) {
      // Never counted: it adds nothing but makes every sum a lower bound.
      listingsAtLeast = freeAtLeast = cc0AtLeast = true;
      if (source?.supportsDownload) directAtLeast = true;
      continue;
    }
    counted++;
    listings += c.total;
    listingsAtLeast ||= Boolean(c.atLeast);
    if (c.free === undefined) freeAtLeast = true;
    else free += c.free;
    freeAtLeast ||= Boolean(c.atLeast);
    if (c.byLicense === undefined) cc0AtLeast = true;
    else cc0 += c.byLicense["CC0-1.0"] ?? 0;
    cc0AtLeast ||= Boolean(c.atLeast);
    if (source?.supportsDownload) {
      const count = source.pricing === "free" ? c.total : c.free;
      if (count === undefined) directAtLeast = true;
      else direct += count;
      directAtLeast ||= Boolean(c.atLeast);
    }
    added += c.addedLast30Days ?? 0;
    add(byType, c.byType);
    if (c.atLeast) for (const t of Object.keys(c.byType)) byTypeAtLeast.add(t);
    add(byLicense, c.byLicense);
  }

  const linked = sources.filter((s) => s.mode === "link");
  return {
    countedAt,
    totals: {
      listings: bound(listings, listingsAtLeast),
      free: bound(free, freeAtLeast),
      cc0: bound(cc0, cc0AtLeast),
      directDownload: bound(direct, directAtLeast),
      addedLast30Days: added,
      sourcesCounted: counted,
      sourcesLinked: linked.length,
    },
    byType: Object.fromEntries(Object.entries(byType).map(([t, n]) => [t, bound(n, byTypeAtLeast.has(t))])),
    byLicense,
    sources: censuses,
    linked: linked.map((s) => ({ id: s.id, name: s.name, homepage: s.homepage })),
  };
}
