/**
 * The results of the address's search: streamed in as the sources answer, settled by the final
 * ranking, then extended page by page. A newer search stops the older one; a search seen before in
 * this visit (Back, Forward) comes back from memory without asking again.
 */
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { Asset, Facets, ProviderReport, SearchResponse, SparseAnswer } from "../../core/schemas/index.ts";
import { getJson } from "../lib/api.ts";
import { PAGE_SIZE, pageWindow, searchPath } from "./query.ts";
import { failureMessage, runSearch } from "./stream.ts";

export interface SearchView {
  key: string;
  /** `searching` until the index answers, `streaming` while live sources are still to answer, then `done` (or `failed`). */
  phase: "searching" | "streaming" | "done" | "failed";
  results: Asset[];
  /** One status line per source considered, from the first page. */
  reports: ProviderReport[];
  /** Live sources still to answer. */
  pending: string[];
  /** The counts of this search once done; until then the previous search's, shown as stale. */
  facets: Facets | undefined;
  error?: string;
  pages: number;
  /** Whether a next page may hold more: some source has results past the pages shown. */
  more: boolean;
  loadingMore: boolean;
  moreError?: string;
  /** Where the last page added starts in `results`, so focus can move to it. */
  addedAt?: number;
  /**
   * Why little answers the search and where else to look, from the final answer (core/search/sparse.ts);
   * undefined while the search runs and when the answer is full enough. A later page asked as the
   * longer merged ranking replaces it with that answer's own; one past it (a per-source offset,
   * which the API never calls sparse) keeps it.
   */
  sparse?: SparseAnswer;
}

/** Searches kept for Back and Forward, the oldest dropped first. */
const REMEMBERED = 20;
const remembered = new Map<string, SearchView>();
function remember(view: SearchView): void {
  remembered.delete(view.key);
  remembered.set(view.key, { ...view, addedAt: undefined });
  for (const key of remembered.keys()) {
    if (remembered.size <= REMEMBERED) break;
    remembered.delete(key);
  }
}

/**
 * A source has more when its total passes the pages shown, or, with no total stated, when it
 * filled what the last page asked of it (query.ts pageWindow: `pages` pages are shown).
 */
const hasMore = (reports: ProviderReport[], pages: number): boolean =>
  reports.some((r) => r.status === "ok" && (r.total !== undefined ? r.total > pages * PAGE_SIZE : r.count >= pageWindow(pages - 1).limit));

/** Ids already on the page, with the other listings of each (the same asset from another source is no new result). */
function shownIds(results: Asset[]): Set<string> {
  const ids = new Set<string>();
  for (const a of results) {
    ids.add(a.id);
    for (const other of a.alsoOn ?? []) ids.add(other.id);
  }
  return ids;
}

const isNew = (seen: Set<string>) => (a: Asset) => !seen.has(a.id) && !(a.alsoOn ?? []).some((o) => seen.has(o.id));

/** A live source's results among those shown, by their provisional scores, until `done` brings the one ranking. */
function provisional(shown: Asset[], arrived: Asset[]): Asset[] {
  const fresh = arrived.filter(isNew(shownIds(shown)));
  return [...shown, ...fresh].sort((a, b) => (b.score ?? 0) - (a.score ?? 0)).slice(0, PAGE_SIZE);
}

const starting = (key: string, facets: Facets | undefined): SearchView => ({
  key,
  phase: "searching",
  results: [],
  reports: [],
  pending: [],
  facets,
  pages: 1,
  more: false,
  loadingMore: false,
});

const settled = (view: SearchView, answer: SearchResponse): SearchView => ({
  ...view,
  phase: "done",
  results: answer.results,
  reports: answer.providers,
  pending: [],
  facets: answer.facets,
  more: hasMore(answer.providers, 1),
  sparse: answer.sparse,
});

export function useSearch(key: string | undefined, wantedPages: number): { view: SearchView | undefined; loadMore: () => void } {
  const [view, setView] = useState<SearchView | undefined>(() => (key ? remembered.get(key) : undefined));
  const current = useRef(view);
  current.current = view;
  const more = useRef<AbortController | undefined>(undefined);

  useEffect(() => {
    if (!key) {
      setView(undefined);
      return;
    }
    const known = remembered.get(key);
    if (known) {
      setView(known);
      return;
    }
    setView((previous) => starting(key, previous?.facets));
    // Parts arriving within one frame are drawn together: sources answering in a burst cost one render a frame, not one an event.
    let queued: ((v: SearchView) => SearchView)[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      const changes = queued;
      queued = [];
      setView((v) => (v?.key === key ? changes.reduce((next, change) => change(next), v) : v));
    };
    const update = (change: (v: SearchView) => SearchView) => {
      queued.push(change);
      frame ||= requestAnimationFrame(flush);
    };
    const stop = runSearch(searchPath(key), {
      index: (part) => update((v) => ({ ...v, phase: "streaming", results: part.results, reports: part.providers, pending: part.pending })),
      source: (part) =>
        update((v) => ({
          ...v,
          results: provisional(v.results, part.results),
          reports: [...v.reports.filter((r) => r.provider !== part.provider.provider), part.provider],
          pending: v.pending.filter((id) => id !== part.provider.provider),
        })),
      done: (answer) => update((v) => settled(v, answer)),
      failed: (message) => update((v) => ({ ...v, phase: "failed", error: message, pending: [] })),
    });
    return () => {
      stop();
      cancelAnimationFrame(frame);
      more.current?.abort();
    };
  }, [key]);

  useEffect(() => {
    if (view?.phase === "done" && !view.loadingMore) remember(view);
  }, [view]);

  const loadMore = useCallback(() => {
    const v = current.current;
    if (v?.phase !== "done" || !v.more || v.loadingMore) return;
    const controller = new AbortController();
    more.current = controller;
    const update = (change: (v: SearchView) => SearchView) => setView((now) => (now?.key === v.key ? change(now) : now));
    update((now) => ({ ...now, loadingMore: true, moreError: undefined }));
    const longer = pageWindow(v.pages).offset === 0;
    getJson<SearchResponse>(searchPath(v.key, v.pages), controller.signal).then(
      (answer) =>
        update((now) => {
          const added = answer.results.filter(isNew(shownIds(now.results)));
          return {
            ...now,
            results: [...now.results, ...added],
            pages: now.pages + 1,
            more: hasMore(answer.providers, now.pages + 1),
            loadingMore: false,
            addedAt: added.length ? now.results.length : undefined,
            // The longer ranking holds every result shown, so its word on them is the current one.
            sparse: longer ? answer.sparse : now.sparse,
          };
        }),
      (err) => controller.signal.aborted || update((now) => ({ ...now, loadingMore: false, moreError: failureMessage(err) })),
    );
  }, []);

  // An address asking for several pages (a shared link, a reload) gets them one after another.
  useEffect(() => {
    if (view && view.pages < wantedPages && !view.moreError) loadMore();
  }, [view, wantedPages, loadMore]);

  return { view, loadMore };
}
