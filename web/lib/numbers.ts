/** How the site's pages write counts, shares, latencies and days: one way everywhere, in the reader's locale. */

/** 316,124, or 316,124+ when the count is a lower bound; "—" when there is none. */
export function counted(count: number | undefined, atLeast?: boolean): string {
  return count === undefined ? "—" : `${count.toLocaleString()}${atLeast ? "+" : ""}`;
}

/** 0.985 → "98.5%"; "—" when nothing was asked (no rate). */
export const percent = (rate: number | null | undefined): string =>
  rate === null || rate === undefined ? "—" : rate.toLocaleString(undefined, { style: "percent", maximumFractionDigits: 1 });

/** 420 → "420 ms", 1840 → "1.8 s"; "—" when there is no sample. */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toLocaleString(undefined, { maximumFractionDigits: 1 })} s`;
}

/** An ISO date or time as a day ("25 November 2026"), in UTC: the census counts UTC days. */
export const day = (iso: string): string => new Date(iso).toLocaleDateString(undefined, { dateStyle: "long", timeZone: "UTC" });

/** 316124 → "316K", for chart axes where space is short. */
export const compact = (n: number): string => n.toLocaleString(undefined, { notation: "compact", maximumFractionDigits: 1 });
