/**
 * The filters beside the results: licence, price and downloads, source and format, each option
 * with its count from the search's facets. A choice changes the address at once (a new history
 * entry), which runs the new search; the counts then follow it.
 */
import { useState } from "preact/hooks";
import type { Facets, Provider } from "../../core/schemas/index.ts";
import { navigate } from "../lib/location.ts";
import { sourceName } from "../lib/providers.ts";
import { countOf, type FacetName, listOptionCount, listOptions } from "./facet-counts.ts";
import { countFamilies, useFamilyTerms } from "./licences.ts";
import { type KeptParam, listParam, toggleInList, withParams } from "./query.ts";

/** Formats listed before the rest are left out; the chosen ones always stay. */
const MAX_FORMATS = 12;
/** Wide enough for the filters to sit beside the results, open, rather than folded above them. */
const BESIDE = "(min-width: 60rem)";

export function Count({ n }: { n: number | undefined }) {
  return n === undefined ? null : <span class="count">{n.toLocaleString()}</span>;
}

interface ToggleProps {
  pressed: boolean;
  href: string;
  label: string;
  count?: number | undefined;
}

/** A filter that is on or off: a toggle button (aria-pressed) whose press is a new address. */
export function Toggle({ pressed, href, label, count }: ToggleProps) {
  return (
    <button type="button" class="chip" aria-pressed={pressed} onClick={() => navigate(href)}>
      {label}
      <Count n={count} />
    </button>
  );
}

interface FiltersProps {
  url: URL;
  facets: Facets | undefined;
  /** The facets are the previous search's, until this one is done. */
  stale: boolean;
  providers: Map<string, Provider>;
}

export function Filters({ url, facets, stale, providers }: FiltersProps) {
  const [open, setOpen] = useState(() => matchMedia(BESIDE).matches);
  const terms = useFamilyTerms();
  const flag = (name: KeptParam) => url.searchParams.get(name)?.trim();
  const licences = listParam(url, "license");
  const cc0 = licences.includes("cc0");
  const commercial = flag("commercial") === "true";
  const noCredit = flag("attribution") === "false";
  const free = flag("free") === "true";
  const downloadable = flag("downloadable") === "true";
  // On, a narrowing filter counts every result; off, what the facets say it would keep.
  const narrowing = (on: boolean, count: number | undefined) => (on ? facets?.total : count);
  const familyCount = (allowed: ReadonlySet<string> | undefined) => (facets && allowed ? countFamilies(facets.license, allowed) : undefined);
  const active = [cc0, commercial, noCredit, free, downloadable].filter(Boolean).length + listParam(url, "providers").length + listParam(url, "format").length;

  return (
    <details class="filters" open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)} aria-busy={stale}>
      <summary>
        <h2>Filters</h2>
        {active > 0 && <span class="count">{active} on</span>}
      </summary>
      <div class="filter-groups">
        <fieldset>
          <legend>Licence</legend>
          <div class="chips">
            <Toggle
              label="CC0"
              pressed={cc0}
              href={toggleInList(url, "license", "cc0")}
              count={licences.length === 0 || cc0 ? narrowing(cc0, facets && countOf(facets.license, "cc0")) : undefined}
            />
            <Toggle
              label="No credit needed"
              pressed={noCredit}
              href={withParams(url, { attribution: noCredit ? undefined : "false" })}
              count={narrowing(noCredit, familyCount(terms?.noCredit))}
            />
            <Toggle
              label="Commercial use"
              pressed={commercial}
              href={withParams(url, { commercial: commercial ? undefined : "true" })}
              count={narrowing(commercial, familyCount(terms?.commercial))}
            />
          </div>
        </fieldset>
        <fieldset>
          <legend>Price and files</legend>
          <div class="chips">
            <Toggle label="Free" pressed={free} href={withParams(url, { free: free ? undefined : "true" })} count={narrowing(free, undefined)} />
            <Toggle
              label="Direct download"
              pressed={downloadable}
              href={withParams(url, { downloadable: downloadable ? undefined : "true" })}
              count={narrowing(downloadable, undefined)}
            />
          </div>
        </fieldset>
        <Checklist url={url} facets={facets} param="providers" facet="source" legend="Source" label={(id) => sourceName(providers, id)} />
        <Checklist url={url} facets={facets} param="format" facet="format" legend="Format" label={(f) => f.toUpperCase()} max={MAX_FORMATS} />
      </div>
    </details>
  );
}

interface ChecklistProps {
  url: URL;
  facets: Facets | undefined;
  param: KeptParam;
  facet: FacetName;
  legend: string;
  label: (value: string) => string;
  max?: number;
}

/** A comma-list filter as checkboxes, one per value the facets counted (values the API cannot filter by left out). */
function Checklist({ url, facets, param, facet, legend, label, max = Number.POSITIVE_INFINITY }: ChecklistProps) {
  const chosen = listParam(url, param);
  const options = listOptions(facets, facet, chosen, max).filter((v) => v !== "unknown");
  if (!options.length) return null;
  return (
    <fieldset>
      <legend>{legend}</legend>
      <ul class="options">
        {options.map((value) => (
          <li key={value}>
            <label>
              <input type="checkbox" checked={chosen.includes(value)} onChange={() => navigate(toggleInList(url, param, value))} />
              <span class="option-name">{label(value)}</span>
              <Count n={listOptionCount(facets, facet, value, chosen)} />
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
