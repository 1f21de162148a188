/**
 * The source sites: their list (`/v1/providers`, the MCP tool `list_providers`) and the daily
 * census of what they hold (`/v1/catalog`, `/catalog.json`), and the licences they publish under
 * (`/v1/licenses`).
 */
import { LICENSES, licenseFamily, licenseKey } from "../../core/license.ts";
import type { Asset, Catalog, LicensesResponse, Provider } from "../../core/schemas/index.ts";
import { toProvider } from "../../core/source.ts";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";

/** Every source, with whether this server's keys enable it. */
export function listProviders(deps: AppDeps): { providers: Provider[] } {
  return { providers: deps.sources.map((s) => toProvider(s, deps.runtime.config.keys)) };
}

/** The latest census; 404 before the pipeline has published one. */
export function catalog(deps: AppDeps): Catalog {
  if (!deps.published.catalog) throw new ApiError(404, "the catalog has not been published yet: run npm run pipeline");
  return deps.published.catalog;
}

/** Assets per licence key, counted once per index: another index holds another array and is counted anew. */
const countsByIndex = new WeakMap<readonly Asset[], Map<string, number>>();

function licenseCounts(assets: readonly Asset[]): Map<string, number> {
  let counts = countsByIndex.get(assets);
  if (!counts) {
    counts = new Map();
    for (const a of assets) if (a.license) counts.set(licenseKey(a.license), (counts.get(licenseKey(a.license)) ?? 0) + 1);
    countsByIndex.set(assets, counts);
  }
  return counts;
}

/** Every licence the service knows, with how many indexed assets carry it. */
export function listLicenses(deps: AppDeps): LicensesResponse {
  const counts = licenseCounts(deps.published.index.assets);
  return {
    licenses: Object.entries(LICENSES).map(([id, license]) => ({
      id,
      family: licenseFamily(id),
      ...license,
      indexedAssets: counts.get(licenseKey(license)) ?? 0,
    })),
  };
}
