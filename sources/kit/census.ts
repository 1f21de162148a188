/** Counting for a census: counts by a key, the item with the highest value (or the latest date), additions in the last 30 days. */
export const DAY_MS = 86_400_000;

/** How many items (or how much of `weight`) fall under each key; an item may have several keys or none. */
export function countBy<T>(
  items: Iterable<T>,
  key: (item: T) => string | readonly string[] | null | undefined,
  weight: (item: T) => number = () => 1,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) {
    const keys = key(item);
    for (const k of new Set(typeof keys === "string" ? [keys] : (keys ?? []))) if (k) out[k] = (out[k] ?? 0) + weight(item);
  }
  return out;
}

/** The item with the highest value (the first of equals); undefined for none. */
export function highest<T>(items: Iterable<T>, value: (item: T) => number): T | undefined {
  let best: T | undefined;
  let bestValue = -Infinity;
  for (const item of items) {
    const v = value(item);
    if (v > bestValue) [best, bestValue] = [item, v];
  }
  return best;
}

/** The item with the latest date up to `now` (a later date is a release still to come); undefined for none. */
export function latest<T>(items: readonly T[], date: (item: T) => number, now: Date): T | undefined {
  const past = items.filter((item) => date(item) <= now.getTime());
  return highest(past, date);
}

/** Sum of `value` over the items. */
export const sum = <T>(items: Iterable<T>, value: (item: T) => number): number => [...items].reduce((total, item) => total + value(item), 0);

/** How many of the dates (ISO text, ms or Date) fall in the 30 days up to `now`, not after it. */
export function addedLast30Days(now: Date, dates: Iterable<string | number | Date | null | undefined>): number {
  const end = now.getTime();
  let added = 0;
  for (const d of dates) {
    if (d === null || d === undefined || d === "") continue;
    const t = new Date(d).getTime();
    if (t > end - 30 * DAY_MS && t <= end) added++;
  }
  return added;
}
