/**
 * What each licence family allows, from `/v1/licenses`: the facets count results by family, so
 * the "commercial use" and "no credit needed" filters count the families whose every licence
 * allows it (a lower bound: a result under a licence without family is not counted).
 */
import { useEffect, useState } from "preact/hooks";
import type { FacetCount, LicensesResponse } from "../../core/schemas/index.ts";
import { getJson } from "../lib/api.ts";

export interface FamilyTerms {
  commercial: ReadonlySet<string>;
  noCredit: ReadonlySet<string>;
}

let request: Promise<FamilyTerms> | undefined;

function loadTerms(): Promise<FamilyTerms> {
  request ??= getJson<LicensesResponse>("/v1/licenses").then(
    ({ licenses }) => {
      const families = new Set(licenses.map((l) => l.family));
      const every = (allows: (l: (typeof licenses)[number]) => boolean) =>
        new Set([...families].filter((f) => licenses.every((l) => l.family !== f || allows(l))));
      return { commercial: every((l) => l.commercialUse === true), noCredit: every((l) => l.attributionRequired === false) };
    },
    (err) => {
      request = undefined; // asked again by the next search
      throw err;
    },
  );
  return request;
}

/** The families' terms, or undefined until they arrive (the two filters show no count meanwhile). */
export function useFamilyTerms(): FamilyTerms | undefined {
  const [terms, setTerms] = useState<FamilyTerms>();
  useEffect(() => {
    let live = true;
    loadTerms().then(
      (t) => live && setTerms(t),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  return terms;
}

/** Results under the families in `allowed`. */
export const countFamilies = (counts: FacetCount[], allowed: ReadonlySet<string>): number =>
  counts.reduce((sum, c) => sum + (allowed.has(c.value) ? c.count : 0), 0);
