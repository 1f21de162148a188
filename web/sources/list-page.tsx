/**
 * `/sources`: every source of the registry in one table, with its census, how it is searched, its
 * terms and its health over the last 24 hours. The sort is in the address (`?sort=free&order=ascending`),
 * so a sorted table can be shared; it replaces the address rather than adding a step to Back.
 */
import "../styles/sources.css";
import { useEffect } from "preact/hooks";
import type { Provider } from "../../core/schemas/index.ts";
import { navigate } from "../lib/location.ts";
import { counted, day } from "../lib/numbers.ts";
import { useCatalog, useStats } from "../lib/site-data.ts";
import { SiteHeader } from "../lib/site-header.tsx";
import { settled, useJson } from "../lib/use-json.ts";
import { MODE_NAMES } from "../search/labels.ts";
import { COLUMNS, type Column, type Direction, type SourceRow, sortRows } from "./columns.tsx";
import { healthPeriod } from "./facts.ts";

const DEFAULT_SORT = "listings";
export const SOURCES_TITLE = "Sources · asset-search";

function readSort(url: URL): { column: Column; direction: Direction } {
  const column = COLUMNS.find((c) => c.sortBy && c.key === url.searchParams.get("sort")) ?? COLUMNS.find((c) => c.key === DEFAULT_SORT)!;
  const asked = url.searchParams.get("order");
  const direction = asked === "ascending" || asked === "descending" ? asked : column.numeric ? "descending" : "ascending";
  return { column, direction };
}

export function SourcesPage({ location }: { location: URL }) {
  const providers = useJson<{ providers: Provider[] }>("/v1/providers");
  const catalog = useCatalog();
  const stats = useStats();
  const { column, direction } = readSort(location);
  useEffect(() => {
    document.title = SOURCES_TITLE;
  }, []);

  const census = new Map((catalog.data?.sources ?? []).map((c) => [c.id, c]));
  const health = new Map((stats.data?.providers ?? []).map((h) => [h.provider, h]));
  const rows: SourceRow[] = (providers.data?.providers ?? []).map((p) => ({ provider: p, census: census.get(p.id), health: health.get(p.id) }));
  const sorted = sortRows(rows, column, direction);
  const sortBy = (next: Column) => {
    const flip = next.key === column.key;
    const order: Direction = flip ? (direction === "ascending" ? "descending" : "ascending") : next.numeric ? "descending" : "ascending";
    navigate(`/sources?${new URLSearchParams({ sort: next.key, order })}`, { replace: true });
  };
  const modes = (["indexed", "live", "link"] as const).map((mode) => `${rows.filter((r) => r.provider.mode === mode).length} ${MODE_NAMES[mode]}`);

  return (
    <>
      <SiteHeader path={location.pathname} />
      <main class="site-main">
        <h1>Sources</h1>
        <p class="lead">
          Every site this service searches: what the daily census counted on it, how it is searched, its terms, and how its live searches fared over the last 24
          hours. Open a source for its full census and history.
        </p>
        {providers.failed ? (
          <p class="problem">The list of sources is not available right now: try again in a moment.</p>
        ) : !settled(providers, catalog, stats) ? (
          <p class="summary" aria-busy="true">
            Loading the sources…
          </p>
        ) : (
          <>
            <p class="summary">
              {`${rows.length} sources (${modes.join(", ")})${catalog.data ? `, ${counted(catalog.data.totals.listings.count, catalog.data.totals.listings.atLeast)} listings counted on ${day(catalog.data.countedAt)}` : ""}.`}
            </p>
            <div class="table-scroll">
              <table class="data-table sources-table">
                <caption id="sources-caption" class="visually-hidden">
                  The sources, sorted by {column.label.toLowerCase()}, {direction}
                </caption>
                <thead>
                  <tr>
                    {COLUMNS.map((c) => (
                      <th key={c.key} scope="col" class={c.numeric ? "num" : undefined} aria-sort={c.key === column.key ? direction : undefined}>
                        {c.sortBy ? (
                          <button type="button" class="sort-button" onClick={() => sortBy(c)}>
                            {c.label}
                            <span class="arrow" aria-hidden="true">
                              {c.key === column.key ? (direction === "ascending" ? "↑" : "↓") : "↕"}
                            </span>
                          </button>
                        ) : (
                          c.label
                        )}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {sorted.map((row) => (
                    <tr key={row.provider.id}>
                      {COLUMNS.map((c, i) =>
                        i === 0 ? (
                          <th key={c.key} scope="row">
                            {c.cell(row)}
                          </th>
                        ) : (
                          <td key={c.key} class={c.numeric ? "num" : undefined}>
                            {c.cell(row)}
                          </td>
                        ),
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p class="note">
              Listings count single assets, or packs where a source sells packs; “+” marks a lower bound. Health is measured where a search asks a site itself,
              so only live sources have it (the index answers for the others), {healthPeriod(stats.data)}.
            </p>
          </>
        )}
      </main>
    </>
  );
}
