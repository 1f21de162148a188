import type { Catalog, CatalogHistory, CatalogHistoryPoint } from "../core/schemas/index.ts";

/** The day's point of `/catalog-history.json`: the catalog's totals and each source's listings. */
export function historyPoint(catalog: Catalog): CatalogHistoryPoint {
  return {
    date: catalog.countedAt.slice(0, 10),
    countedAt: catalog.countedAt,
    listings: catalog.totals.listings.count,
    free: catalog.totals.free.count,
    cc0: catalog.totals.cc0.count,
    directDownload: catalog.totals.directDownload.count,
    sources: Object.fromEntries(catalog.sources.map((s) => [s.id, s.total])),
  };
}

/** One point per UTC day, oldest first: a second run on the same day replaces that day's point. */
export function addPoint(history: CatalogHistory, point: CatalogHistoryPoint): CatalogHistory {
  const points = history.points.filter((p) => p.date !== point.date);
  points.push(point);
  points.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { points };
}
