/**
 * The columns of the list of sources: what each shows of a source and the value it sorts by. A
 * source without a value (a link source has no census, an indexed one no live requests) sorts
 * last whichever way the column is sorted.
 */
import type { ComponentChildren } from "preact";
import type { Provider, ProviderHealth, SourceCensus } from "../../core/schemas/index.ts";
import { followInApp } from "../lib/location.ts";
import { counted, duration, percent } from "../lib/numbers.ts";
import { MODE_NAMES } from "../search/labels.ts";
import { keyState, keyWords, licenceOf, PRICING, typesOf } from "./facts.ts";

export interface SourceRow {
  provider: Provider;
  census: SourceCensus | undefined;
  health: ProviderHealth | undefined;
}

export interface Column {
  key: string;
  label: string;
  /** Right-aligned, and sorted largest first on the first click. */
  numeric?: boolean;
  /** Absent: the column does not sort. */
  sortBy?: (row: SourceRow) => number | string | undefined;
  cell: (row: SourceRow) => ComponentChildren;
}

const MODES = ["indexed", "live", "link"];
/** Sorted ascending: what stops or limits a source here first. */
const KEYS = ["required key, not set", "optional key, not set", "required key, set", "optional key, set", "no key needed"];
/** Health only says something when the source was asked. */
const asked = (row: SourceRow) => (row.health && row.health.requests > 0 ? row.health : undefined);

export const COLUMNS: readonly Column[] = [
  {
    key: "name",
    label: "Source",
    sortBy: (r) => r.provider.name.toLowerCase(),
    cell: (r) => (
      <a href={`/sources/${encodeURIComponent(r.provider.id)}`} onClick={followInApp}>
        {r.provider.name}
      </a>
    ),
  },
  {
    key: "listings",
    label: "Listings",
    numeric: true,
    sortBy: (r) => r.census?.total,
    cell: (r) =>
      r.census ? (
        <>
          {counted(r.census.total, r.census.atLeast)}
          {r.census.unit === "packs" && <span class="unit"> packs</span>}
          {r.census.stale && <span class="badge stale">stale</span>}
        </>
      ) : (
        "—"
      ),
  },
  { key: "free", label: "Free", numeric: true, sortBy: (r) => r.census?.free, cell: (r) => counted(r.census?.free) },
  {
    key: "types",
    label: "Types",
    cell: (r) => (
      <ul class="types">
        {typesOf(r.provider, r.census).map((t) => (
          <li key={t.type}>
            {t.name}
            {t.count !== undefined && <span class="count"> {t.count.toLocaleString()}</span>}
          </li>
        ))}
      </ul>
    ),
  },
  {
    key: "access",
    label: "Access",
    sortBy: (r) => (r.provider.mode ? MODES.indexOf(r.provider.mode) : undefined),
    cell: (r) => r.provider.mode && <span class={`mode ${r.provider.mode}`}>{MODE_NAMES[r.provider.mode]}</span>,
  },
  { key: "pricing", label: "Pricing", sortBy: (r) => PRICING[r.provider.pricing], cell: (r) => PRICING[r.provider.pricing] },
  {
    key: "downloads",
    label: "Direct download",
    sortBy: (r) => (r.provider.supportsDownload ? 0 : 1),
    cell: (r) => (r.provider.supportsDownload ? "Yes" : "No"),
  },
  {
    key: "licence",
    label: "Licence",
    sortBy: (r) => licenceOf(r.provider, r.census).label.toLowerCase(),
    cell: (r) => {
      const { label, kind } = licenceOf(r.provider, r.census);
      return <span class={`badge ${kind}`}>{label}</span>;
    },
  },
  {
    key: "key",
    label: "Key here",
    sortBy: (r) => KEYS.indexOf(keyWords(keyState(r.provider))),
    cell: (r) => {
      const key = keyState(r.provider);
      if (key.need === "none") return keyWords(key);
      return (
        <>
          <span class={key.set ? "key-set" : `key-unset-${key.need}`}>{keyWords(key)}</span>
          <span class="env">{key.env}</span>
        </>
      );
    },
  },
  { key: "ok", label: "OK rate", numeric: true, sortBy: (r) => asked(r)?.okRate ?? undefined, cell: (r) => percent(asked(r)?.okRate) },
  {
    key: "p95",
    label: "p50 / p95",
    numeric: true,
    sortBy: (r) => asked(r)?.p95Ms ?? undefined,
    cell: (r) => {
      const h = asked(r);
      return h ? `${duration(h.p50Ms)} / ${duration(h.p95Ms)}` : "—";
    },
  },
];

export type Direction = "ascending" | "descending";

/** The rows in the column's order; ties and missing values keep the name's order. */
export function sortRows(rows: readonly SourceRow[], column: Column, direction: Direction): SourceRow[] {
  const value = column.sortBy ?? (() => undefined);
  const sign = direction === "ascending" ? 1 : -1;
  const byName = (a: SourceRow, b: SourceRow) => a.provider.name.localeCompare(b.provider.name);
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === undefined || y === undefined) return x === y ? byName(a, b) : x === undefined ? 1 : -1;
    return x < y ? -sign : x > y ? sign : byName(a, b);
  });
}
