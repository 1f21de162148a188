import type { Catalog } from "../core/schemas/index.ts";
import type { PipelineSettings } from "./settings.ts";

export type GuardLimits = Pick<PipelineSettings, "maxFailedShare" | "maxListingsDrop">;

/** What one source's turn in a run came to (pipeline/run.ts): its census, its crawl and its assets. */
export interface SourceOutcome {
  id: string;
  census: "ok" | "stale" | "missing" | "none";
  crawl: "ok" | "kept" | "none";
  assets: number;
  error?: string;
  tookMs: number;
}

/** A source failed when its count or its crawl failed (a source that publishes no count did not). */
export const failed = (o: SourceOutcome): boolean => o.census === "stale" || o.census === "missing" || o.crawl === "kept";

/** A source that publishes no count and is not indexed has nothing to fail: it is left out of the share. */
const attempted = (o: SourceOutcome): boolean => o.census !== "none" || o.crawl !== "none";

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;

/**
 * Why this run must not replace the published truth, or undefined when it may: more than
 * `maxFailedShare` of the sources that count or crawl failed, or the listing total fell by more than `maxListingsDrop`
 * against the previous publication. Either way the previous publication stays live.
 */
export function refusal(outcomes: readonly SourceOutcome[], catalog: Catalog, previous: Catalog | undefined, limits: GuardLimits): string | undefined {
  const failures = outcomes.filter(failed).length;
  const counted = outcomes.filter(attempted).length;
  const failedShare = counted ? failures / counted : 0;
  if (failedShare > limits.maxFailedShare) {
    return `${failures} of ${counted} sources failed (${percent(failedShare)}, more than MAX_FAILED_SHARE ${limits.maxFailedShare}): nothing published`;
  }
  const before = previous?.totals.listings.count ?? 0;
  const now = catalog.totals.listings.count;
  const drop = before > 0 ? (before - now) / before : 0;
  if (drop > limits.maxListingsDrop) {
    return `listings fell from ${before} to ${now} (${percent(drop)}, more than MAX_LISTINGS_DROP ${limits.maxListingsDrop}): nothing published`;
  }
  return undefined;
}
