import pLimit from "p-limit";
import { SourceError, toSourceError } from "../../core/source-error.ts";

/**
 * What a crawl adds from each item's own page: `read(item)` for every item, four at a time (polite to the site). A page
 * that fails gives undefined (its item keeps what the listing says); when every page fails, the pages changed or the site
 * refuses them: the first failure is thrown, naming the source once, and the pipeline then keeps the previous records.
 */
export async function readItemPages<T, R>(source: string, items: readonly T[], read: (item: T) => Promise<R>): Promise<Array<R | undefined>> {
  const limit = pLimit(4);
  const pages = await Promise.allSettled(items.map((item) => limit(() => read(item))));
  const failed = pages.find((p) => p.status === "rejected");
  if (!failed || pages.some((p) => p.status === "fulfilled")) return pages.map((p) => (p.status === "fulfilled" ? p.value : undefined));
  const { kind, message, url, status } = toSourceError(source, failed.reason);
  throw new SourceError(source, kind, `no item page could be read (${message.slice(source.length + 2)})`, url, { status, cause: failed.reason });
}
