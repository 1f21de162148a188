/**
 * Maps the contract's per-source `offset` + `limit` onto a site's numbered pages (1-based).
 * Used by the live sources whose listings are paged (BlenderKit, CGTrader).
 */

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

/**
 * Asks the pages of a window one after another (stopping after a short page: the listing ended),
 * then cuts the items to the window. `fetchPage` returns the page's items and the site's total.
 */
export async function collectWindow<T>(
  window: PageWindow,
  limit: number,
  pageSize: number,
  fetchPage: (page: number) => Promise<{ items: T[]; total?: number }>,
): Promise<{ items: T[]; total?: number }> {
  const items: T[] = [];
  let total: number | undefined;
  for (const page of window.pages) {
    const res = await fetchPage(page);
    if (total === undefined && res.total !== undefined) total = res.total;
    items.push(...res.items);
    if (res.items.length < pageSize) break;
  }
  return { items: items.slice(window.skip, window.skip + limit), ...(total !== undefined ? { total } : {}) };
}
