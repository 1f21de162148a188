/**
 * Maps the contract's per-source `offset` + `limit` onto a site's numbered pages (1-based), and
 * fetches the pages of a window so that a failing follow-up page does not waste the pages already
 * answered. Used by the live sources whose listings are paged.
 */
import { UpstreamError } from "../../core/http/types.ts";

export interface PageWindow {
  /** 1-based page numbers to ask, in order (one or two for limit <= pageSize). */
  pages: number[];
  /** How many items of the first page come before `offset`. */
  skip: number;
}

/** The pages of `pageSize` items that cover items [offset, offset + limit). */
export function pageWindow(offset: number, limit: number, pageSize: number): PageWindow {
  const first = Math.floor(offset / pageSize);
  const last = Math.floor((offset + Math.max(1, limit) - 1) / pageSize);
  const pages: number[] = [];
  for (let p = first; p <= last; p++) pages.push(p + 1);
  return { pages, skip: offset - first * pageSize };
}

/** An abort of the search itself is never swallowed: only the failure of one upstream page is. */
function aborted(err: unknown, signal: AbortSignal | undefined): boolean {
  return Boolean(signal?.aborted) || (err instanceof UpstreamError && err.kind === "aborted");
}

/**
 * A follow-up page of a search whose first page already answered: its answer, or undefined when it
 * failed (the search still returns what it has gathered). An aborted search still throws.
 */
export async function followUpPage<T>(load: () => Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  try {
    return await load();
  } catch (err) {
    if (aborted(err, signal)) throw err;
    return undefined;
  }
}

/**
 * Pages asked at the same time, in window order: the answers up to the first page that failed.
 * The first page's failure is the search's failure (thrown); a later page's failure only ends the
 * window there, so the results stay contiguous. An aborted search still throws.
 */
export async function leadingPages<T>(fetches: readonly Promise<T>[], signal: AbortSignal | undefined): Promise<T[]> {
  const settled = await Promise.allSettled(fetches);
  const answers: T[] = [];
  for (const [i, result] of settled.entries()) {
    if (result.status === "fulfilled") {
      answers.push(result.value);
      continue;
    }
    if (i === 0 || aborted(result.reason, signal)) throw result.reason;
    break;
  }
  return answers;
}

/**
 * Asks the pages of a window one after another (stopping after a short page: the listing ended),
 * then cuts the items to the window. `fetchPage` returns the page's items and the site's total.
 * The first page's failure throws; a later page's failure ends the window with what was gathered.
 */
export async function collectWindow<T>(
  window: PageWindow,
  limit: number,
  pageSize: number,
  fetchPage: (page: number) => Promise<{ items: T[]; total?: number }>,
  signal: AbortSignal | undefined,
): Promise<{ items: T[]; total?: number }> {
  const items: T[] = [];
  let total: number | undefined;
  for (const [i, page] of window.pages.entries()) {
    const res = i === 0 ? await fetchPage(page) : await followUpPage(() => fetchPage(page), signal);
    if (!res) break;
    if (total === undefined && res.total !== undefined) total = res.total;
    items.push(...res.items);
    if (res.items.length < pageSize) break;
  }
  return { items: items.slice(window.skip, window.skip + limit), ...(total !== undefined ? { total } : {}) };
}
