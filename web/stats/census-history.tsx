/**
 * The census day by day, from `/catalog-history.json`: one chart per measure (each on its own
 * scale, so the smaller ones do not lie flat under the listings), then today's listings by type,
 * which the history does not keep per day.
 */
import type { Catalog, CatalogHistory } from "../../core/schemas/index.ts";
import { LineChart } from "../lib/line-chart.tsx";
import { counted } from "../lib/numbers.ts";
import { TYPE_NAMES } from "../search/labels.ts";

const MEASURES = [
  { key: "listings", title: "Listings" },
  { key: "free", title: "Free" },
  { key: "cc0", title: "CC0" },
  { key: "directDownload", title: "Direct download" },
] as const;

export function CensusHistory({ history }: { history: CatalogHistory }) {
  const days = history.points.map((p) => p.date);
  const lowerBound = history.points.filter((p) => p.atLeast).map((p) => p.date);
  return (
    <>
      <div class="chart-grid">
        {MEASURES.map((m) => (
          <LineChart key={m.key} title={m.title} days={days} values={history.points.map((p) => p[m.key])} />
        ))}
      </div>
      {lowerBound.length > 0 && (
        <p class="note">
          On {lowerBound.length === days.length ? "every day" : lowerBound.join(", ")} the totals are lower bounds: a source was capped, stale or not counted.
        </p>
      )}
    </>
  );
}

export function ByType({ catalog }: { catalog: Catalog }) {
  const types = Object.entries(catalog.byType).sort(([, a], [, b]) => b.count - a.count);
  const most = Math.max(1, ...types.map(([, c]) => c.count));
  return (
    <table class="data-table ranked-table" aria-labelledby="by-type-heading">
      <thead>
        <tr>
          <th scope="col">Type</th>
          <th scope="col" class="num">
            Listings
          </th>
        </tr>
      </thead>
      <tbody>
        {types.map(([type, c]) => (
          <tr key={type}>
            <th scope="row">
              {TYPE_NAMES[type as keyof typeof TYPE_NAMES]?.many ?? type}
              <span class="bar" aria-hidden="true" style={{ inlineSize: `${(100 * c.count) / most}%` }} />
            </th>
            <td class="num">{counted(c.count, c.atLeast)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
