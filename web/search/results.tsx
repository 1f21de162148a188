/**
 * The results of a search: type chips, the count (a live region, so it is heard), the sort, the
 * sources' status, the grid (skeleton cards until the first results arrive), the note when little
 * answers (sparse-note.tsx) and "Load more".
 */
import { useEffect, useRef } from "preact/hooks";
import type { Provider } from "../../core/schemas/index.ts";
import { navigate } from "../lib/location.ts";
import { ResultCard, SkeletonCard } from "./card.tsx";
import { SORT_NAMES } from "./labels.ts";
import { withAsset, withParams } from "./query.ts";
import { NO_RESULTS_ADVICE, SparseNote } from "./sparse-note.tsx";
import { StatusStrip } from "./status-strip.tsx";
import { TypeChips } from "./type-chips.tsx";
import type { SearchView } from "./use-search.ts";

/** Cards whose thumbnails load at once, as the page's largest picture; the rest wait until they are scrolled near. */
const FIRST_ROW = 4;

/** Skeleton cards while nothing has arrived: about a screenful on a phone and a row or two on a desktop. */
const SKELETONS = 8;

interface ResultsProps {
  url: URL;
  q: string;
  view: SearchView | undefined;
  providers: Map<string, Provider>;
  loadMore: () => void;
}

/** What the live region says: short, and only the count once the search is done. */
function announcement(view: SearchView | undefined, q: string): string {
  if (!view || view.phase === "searching") return "Searching…";
  if (view.phase === "failed") return view.error ?? "The search failed.";
  const shown = view.results.length;
  if (view.phase === "streaming") {
    const waiting = view.pending.length === 1 ? "1 more source" : `${view.pending.length} more sources`;
    return `${shown.toLocaleString()} results so far, ${waiting} searching…`;
  }
  const words = q ? ` for “${q}”` : "";
  if (!shown) return `No results${words}.`;
  const total = view.facets?.total;
  return total !== undefined && total > shown
    ? `Showing ${shown.toLocaleString()} of ${total.toLocaleString()} results${words}.`
    : `${shown.toLocaleString()} results${words}.`;
}

export function Results({ url, q, view, providers, loadMore }: ResultsProps) {
  const firstAdded = useRef<HTMLAnchorElement>(null);
  const asked = useRef(false);
  const sort = url.searchParams.get("sort") ?? "";
  const busy = !view || view.phase === "searching" || view.phase === "streaming";
  const results = view?.results ?? [];

  // After a press of "Load more" (not pages a shared address loads by itself), focus moves to the first new card, where reading goes on.
  useEffect(() => {
    if (view?.addedAt === undefined || !asked.current) return;
    asked.current = false;
    firstAdded.current?.focus();
  }, [view?.addedAt]);
  const more = () => {
    asked.current = true;
    loadMore();
  };

  return (
    <section class="results" aria-labelledby="results-heading">
      <h2 id="results-heading" class="visually-hidden">
        Results
      </h2>
      <TypeChips url={url} facets={view?.facets} />
      <div class="toolbar">
        <p class="result-count" role="status">
          {announcement(view, q)}
        </p>
        <label class="sort">
          Sort
          <select value={sort} onChange={(e) => navigate(withParams(url, { sort: (e.currentTarget as HTMLSelectElement).value || undefined }))}>
            {Object.entries(SORT_NAMES).map(([value, name]) => (
              <option key={value} value={value === "relevance" ? "" : value}>
                {name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <StatusStrip reports={view?.reports ?? []} pending={view?.pending ?? []} providers={providers} />
      <ul class="grid" aria-busy={busy}>
        {results.map((asset, i) => (
          <ResultCard
            key={asset.id}
            asset={asset}
            href={withAsset(url, asset.id)}
            providers={providers}
            linkRef={i === view?.addedAt ? firstAdded : undefined}
            eager={i < FIRST_ROW}
          />
        ))}
        {busy && results.length === 0 && Array.from({ length: SKELETONS }, (_, i) => <SkeletonCard key={`skeleton-${i}`} />)}
      </ul>
      {view?.phase === "done" &&
        (view.sparse ? (
          <SparseNote url={url} q={q} sparse={view.sparse} empty={results.length === 0} />
        ) : (
          results.length === 0 && <p class="no-results">{NO_RESULTS_ADVICE}</p>
        ))}
      {view?.phase === "done" && (view.more || view.moreError) && (
        <div class="more">
          {view.moreError && <p class="error">{view.moreError}</p>}
          <button type="button" class="button" onClick={more} aria-busy={view.loadingMore}>
            {view.loadingMore ? "Loading more…" : "Load more"}
          </button>
        </div>
      )}
    </section>
  );
}
