/** The data the pages around the search show: the census, its daily history and the usage stats, each one GET of the API. */
import type { Catalog, CatalogHistory, Stats } from "../../core/schemas/index.ts";
import { type JsonLoad, useJson } from "./use-json.ts";

/** The server caches `/v1/stats` for a minute (server/stats/route.ts): asking more often would show the same numbers. */
const STATS_REFRESH_MS = 60_000;

export const useCatalog = (): JsonLoad<Catalog> => useJson<Catalog>("/v1/catalog");

/** The open copy of the history (no key, no rate limit), as any reader of the publication gets it. */
export const useHistory = (): JsonLoad<CatalogHistory> => useJson<CatalogHistory>("/catalog-history.json");

export const useStats = (): JsonLoad<Stats> => useJson<Stats>("/v1/stats", STATS_REFRESH_MS);
