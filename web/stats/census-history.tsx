/**
 * The census day by day, from `/catalog-history.json`: one chart per measure (each on its own
 * scale, so the smaller ones do not lie flat under the listings), one per asset type from the day
 * the history began to keep them, and the latest census's listings by type.
 */
import type { Catalog, CatalogHistory } from "../../core/schemas/index.ts";
import { LineChart } from "../lib/line-chart.tsx";
import { counted, day } from "../lib/numbers.ts";
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

/** One chart per asset type, most listings first, over the days whose point has `byType` (points written before it existed lack it). */
export function TypeHistory({ history }: { history: CatalogHistory }) {
  const points = history.points.filter((p) => p.byType !== undefined);
  if (points.length === 0) return <p class="note">No census day has recorded its listings by type yet.</p>;
  const latest = points.at(-1)!.byType!;
  const types = [...new Set(points.flatMap((p) => Object.keys(p.byType!)))].sort((a, b) => (latest[b] ?? 0) - (latest[a] ?? 0));
  const days = points.map((p) => p.date);
  return (
    <>
      {points.length < history.points.length && <p class="note">Listings by type are recorded from {day(points[0]!.date)} on.</p>}
      <div class="chart-grid">
        {types.map((type) => (
          // A type a day does not list had no listings that day.
          <LineChart key={type} title={typeName(type)} days={days} values={points.map((p) => p.byType![type] ?? 0)} />
        ))}
      </div>
    </>
  );
}

const typeName = (type: string): string => TYPE_NAMES[type as keyof typeof TYPE_NAMES]?.many ?? type;

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
              {typeName(type)}
              <span class="bar" aria-hidden="true" style={{ inlineSize: `${(100 * c.count) / most}%` }} />
            </th>
            <td class="num">{counted(c.count, c.atLeast)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
