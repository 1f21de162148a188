/**
 * A source's census in full, as `/v1/catalog` holds it: its totals, when and how it was counted
 * (and since when its numbers are old, and why), then its listings by type, by licence and by
 * its own categories, and what it highlights. `level` is the heading level of its parts.
 */
import type { SourceCensus } from "../../core/schemas/index.ts";
import { webUrl } from "../lib/format.ts";
import { counted, day } from "../lib/numbers.ts";
import { TYPE_NAMES } from "../search/labels.ts";

/** Categories shown before the rest fold away: a site may file its listings under hundreds. */
const CATEGORIES_SHOWN = 12;

const typeName = (type: string) => TYPE_NAMES[type as keyof typeof TYPE_NAMES]?.many ?? type;
const largestFirst = (counts: Record<string, number>) => Object.entries(counts).sort(([, a], [, b]) => b - a);

function Stale({ census }: { census: SourceCensus }) {
  if (!census.stale) return null;
  const why = census.stale.error ? ` The count failed: ${census.stale.error}` : "";
  return (
    <p class="stale-note">
      {census.stale.since
        ? `Stale since ${day(census.stale.since)}: these are the numbers of ${day(census.countedAt)}, kept while the count fails.${why}`
        : `Not counted yet.${why}`}
    </p>
  );
}

/** A part of the census under its heading: a table of counts, largest first, with each one's share of the listings. */
function Counts(props: {
  id: string;
  title: string;
  what: string;
  counts: Record<string, number>;
  total: number;
  level: number;
  name?: (key: string) => string;
}) {
  const { id, title, what, counts, total, level, name = (k: string) => k } = props;
  const H = `h${level}` as "h3";
  return (
    <section class="census-part">
      <H id={id}>{title}</H>
      <table class="data-table counts-table" aria-labelledby={id}>
        <thead>
          <tr>
            <th scope="col">{what}</th>
            <th scope="col" class="num">
              Listings
            </th>
            <th scope="col" class="num">
              Share
            </th>
          </tr>
        </thead>
        <tbody>
          {largestFirst(counts).map(([key, count]) => (
            <tr key={key}>
              <th scope="row">{name(key)}</th>
              <td class="num">{count.toLocaleString()}</td>
              <td class="num">{total > 0 ? `${((100 * count) / total).toLocaleString(undefined, { maximumFractionDigits: 1 })}%` : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Categories({ counts, level }: { counts: Record<string, number>; level: number }) {
  const H = `h${level}` as "h3";
  const all = largestFirst(counts);
  const item = ([name, count]: [string, number]) => (
    <li key={name}>
      {name} <span class="count">{count.toLocaleString()}</span>
    </li>
  );
  return (
    <section class="census-part">
      <H>Its own categories</H>
      <ul class="category-list">{all.slice(0, CATEGORIES_SHOWN).map(item)}</ul>
      {all.length > CATEGORIES_SHOWN && (
        <details class="more-categories">
          <summary>All {all.length} categories</summary>
          <ul class="category-list">{all.slice(CATEGORIES_SHOWN).map(item)}</ul>
        </details>
      )}
    </section>
  );
}

export function SourceCensusView({ census, level }: { census: SourceCensus; level: number }) {
  const H = `h${level}` as "h3";
  const unit = census.unit === "packs" ? "packs" : "listings";
  return (
    <>
      <Stale census={census} />
      <dl class="totals">
        <div>
          <dt>{unit === "packs" ? "Packs" : "Listings"}</dt>
          <dd>{counted(census.total, census.atLeast)}</dd>
        </div>
        <div>
          <dt>Free</dt>
          <dd>{counted(census.free)}</dd>
        </div>
        <div>
          <dt>Added in the last 30 days</dt>
          <dd>{counted(census.addedLast30Days)}</dd>
        </div>
        {census.downloads !== undefined && (
          <div>
            <dt>Downloads, as the site counts them</dt>
            <dd>{counted(census.downloads)}</dd>
          </div>
        )}
      </dl>
      <p class="note">
        Counted on {day(census.countedAt)}. How: {census.method}.
      </p>
      <div class="census-parts">
        {Object.keys(census.byType).length > 0 && (
          <Counts id="by-type" title="By type" what="Type" counts={census.byType} total={census.total} level={level} name={typeName} />
        )}
        {census.byLicense && Object.keys(census.byLicense).length > 0 && (
          <Counts id="by-licence" title="By licence" what="Licence" counts={census.byLicense} total={census.total} level={level} />
        )}
        {census.highlights && census.highlights.length > 0 && (
          <section class="census-part">
            <H>Highlights</H>
            <ul class="highlights">
              {census.highlights.map((h) => (
                <li key={h.label}>
                  <span class="highlight-label">{h.label}</span>
                  {webUrl(h.url) ? <a href={webUrl(h.url)}>{h.title}</a> : h.title}
                  {h.value !== undefined && <span class="count"> · {h.value.toLocaleString()}</span>}
                </li>
              ))}
            </ul>
          </section>
        )}
        {census.categories && Object.keys(census.categories).length > 0 && <Categories counts={census.categories} level={level} />}
      </div>
    </>
  );
}
