import type { Catalog, CatalogHistory, CatalogHistoryPoint } from "../core/schemas/index.ts";
import { neverCounted } from "./catalog.ts";

/**
 * The day's point of `/catalog-history.json`: the catalog's totals, its listings by type and each
 * source's listings, and what a reader needs to tell an outage from a plateau: the sources whose
 * numbers were carried over (`stale`), whether the total is a lower bound, and how many sources it
 * counts.
 */
export function historyPoint(catalog: Catalog): CatalogHistoryPoint {
  return {
    date: catalog.countedAt.slice(0, 10),
    countedAt: catalog.countedAt,
    listings: catalog.totals.listings.count,
    free: catalog.totals.free.count,
    cc0: catalog.totals.cc0.count,
    directDownload: catalog.totals.directDownload.count,
    sources: Object.fromEntries(catalog.sources.map((s) => [s.id, s.total])),
    stale: catalog.sources.filter((s) => s.stale !== undefined && !neverCounted(s)).map((s) => s.id),
    atLeast: catalog.totals.listings.atLeast === true,
    sourcesCounted: catalog.totals.sourcesCounted,
    byType: Object.fromEntries(Object.entries(catalog.byType).map(([type, c]) => [type, c.count])),
  };
}

/** One point per UTC day, oldest first: a second run on the same day replaces that day's point. */
export function addPoint(history: CatalogHistory, point: CatalogHistoryPoint): CatalogHistory {
  const points = history.points.filter((p) => p.date !== point.date);
  points.push(point);
  points.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { points };
}
