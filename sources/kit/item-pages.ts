import pLimit from "p-limit";
import { SourceError, toSourceError } from "../../core/model/source-error.ts";

/**
 * What a crawl adds from each item's own page, four at a time (polite to the site); a page that fails gives undefined (its item
 * keeps what the listing says). When all fail (the pages changed, or the site refuses them), the first failure is thrown, naming
 * the source once, with its kind and status: the pipeline then keeps the previous records.
 */
export async function readItemPages<T, R>(source: string, items: readonly T[], read: (item: T) => Promise<R>): Promise<Array<R | undefined>> {
  const limit = pLimit(4);
  const pages = await Promise.allSettled(items.map((item) => limit(() => read(item))));
  if (!pages.length || pages.some((p) => p.status === "fulfilled")) return pages.map((p) => (p.status === "fulfilled" ? p.value : undefined));
  const first = toSourceError(source, (pages[0] as PromiseRejectedResult).reason);
  const what = `no item page could be read (${first.message.slice(source.length + 2)})`;
  throw new SourceError(source, first.kind, what, first.url, { status: first.status, cause: first });
}
