import pLimit from "p-limit";

/** Item pages a crawl reads at once: a few, to stay polite to the site. */
const CONCURRENCY = 4;

/**
 * What a crawl adds from each item's own page: `read(item)` for every item, a few at a time. A page
 * that fails gives undefined (its item keeps what the listing says); when every page fails, the
 * first error is thrown, naming the source: the pages changed or the site refuses them, and the
 * pipeline then keeps the previous records.
 */
export async function readItemPages<T, R>(source: string, items: readonly T[], read: (item: T) => Promise<R>): Promise<Array<R | undefined>> {
  const limit = pLimit(CONCURRENCY);
  const pages = await Promise.allSettled(items.map((item) => limit(() => read(item))));
  const failed = pages.find((p) => p.status === "rejected");
  if (failed && pages.every((p) => p.status === "rejected")) {
    const reason = failed.reason instanceof Error ? failed.reason.message : String(failed.reason);
    throw new Error(`${source}: no item page could be read (${reason})`);
  }
  return pages.map((p) => (p.status === "fulfilled" ? p.value : undefined));
}
