/**
 * The source sites: their list (`/v1/providers`, the MCP tool `list_providers`) and the daily
 * census of what they hold (`/v1/catalog`, `/catalog.json`), and the licences they publish under
 * (`/v1/licenses`).
 */
import { LICENSES, licenseFamily, licenseKey } from "../../core/model/license.ts";
import { toProvider } from "../../core/model/source.ts";
import type { Catalog, LicensesResponse, Provider } from "../../core/schemas/index.ts";
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

/** Every licence the service knows, with how many indexed assets carry it. */
export function listLicenses(deps: AppDeps): LicensesResponse {
  const counts = deps.published.index.countBy("license");
  return {
    licenses: Object.entries(LICENSES).map(([id, license]) => ({
      id,
      family: licenseFamily(id),
      ...license,
      indexedAssets: counts.get(licenseKey(license)) ?? 0,
    })),
  };
}
