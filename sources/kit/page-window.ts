/** Paging: the contract's offset + limit on a site's 1-based pages, and fetching a window's pages (an aborted search always throws). */
import { UpstreamError } from "../../core/http/types.ts";
import type { SourceQuery } from "../../core/model/source.ts";
import type { SourceIo } from "./fetch.ts";

/** `pages`: the 1-based pages to ask, in order; `skip`: how many items of the first page come before `offset`. */
export type PageWindow = { pages: number[]; skip: number };
type Page<T> = { items: T[]; total?: number };

/** The pages of `pageSize` items that cover items [offset, offset + limit). */
export function pageWindow(offset: number, limit: number, pageSize: number): PageWindow {
  const first = Math.floor(offset / pageSize);
  const last = Math.floor((offset + Math.max(1, limit) - 1) / pageSize);
  return { pages: Array.from({ length: last - first + 1 }, (_, i) => first + i + 1), skip: offset - first * pageSize };
}

const aborted = (err: unknown, signal: AbortSignal | undefined) => Boolean(signal?.aborted) || (err instanceof UpstreamError && err.kind === "aborted");

/** A follow-up page of a search whose first page answered: its answer, or undefined when it failed. */
export async function followUpPage<T>(load: () => Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  return Promise.resolve()
    .then(load)
    .catch((err: unknown) => (aborted(err, signal) ? Promise.reject(err) : undefined));
}

/** Pages asked at the same time, in window order: the answers up to the first page that failed (the first page's failure throws). */
export async function leadingPages<T>(fetches: readonly Promise<T>[], signal: AbortSignal | undefined): Promise<T[]> {
  const answers: T[] = [];
  for (const [i, r] of (await Promise.allSettled(fetches)).entries()) {
    if (r.status === "fulfilled") answers.push(r.value);
    else if (i === 0 || aborted(r.reason, signal)) throw r.reason;
    else break;
  }
  return answers;
}

/** The query's window on pages of `pageSize` items, asked one after another (a short page ends the listing; a failed later page ends the window). */
export async function collectWindow<T>(query: SourceQuery, pageSize: number, io: SourceIo, fetchPage: (page: number) => Promise<Page<T>>): Promise<Page<T>> {
  const { pages, skip } = pageWindow(query.offset, query.limit, pageSize);
  const items: T[] = [];
  let total: number | undefined;
  for (const [i, page] of pages.entries()) {
    const res = i === 0 ? await fetchPage(page) : await followUpPage(() => fetchPage(page), io.signal);
    if (!res) break;
    total ??= res.total;
    items.push(...res.items);
    if (res.items.length < pageSize) break;
  }
  return { items: items.slice(skip, skip + query.limit), ...(total !== undefined ? { total } : {}) };
}

/**
 * The query's window on pages of `pageSize` items, asked at once: the answers up to the first later page that failed (the
 * first page's results still stand), and their items in the window.
 */
export async function windowPages<T, P>(query: SourceQuery, pageSize: number, io: SourceIo, load: (page: number) => Promise<P & { items: T[] }>) {
  const { pages, skip } = pageWindow(query.offset, query.limit, pageSize);
  const answers = await leadingPages(pages.map(load), io.signal);
  return { answers, items: answers.flatMap((a) => a.items).slice(skip, skip + query.limit) };
}
