/**
 * The note after the results when little answers a search (the answer's `sparse`,
 * core/search/sparse.ts): why, in plain words, the same search with the type its words name, and
 * the same search on the sites that can only be linked to. With no results at all it is the
 * "no results" message too, so the page never shows two notes.
 */
import type { SparseAnswer } from "../../core/schemas/index.ts";
import { webUrl } from "../lib/format.ts";
import { TYPE_NAMES } from "./labels.ts";
import { withParams } from "./query.ts";

/** What to try when nothing answers. */
export const NO_RESULTS_ADVICE = "Try fewer or other words, or take a filter off; the sources' status above says which sources answered.";

/** Why the answer is short, for a person, naming the words searched: from the answer's facts (its `reason` says the same for a program). */
export function sparseWhy({ shown, bestShare }: SparseAnswer, q: string): string {
  const words = q ? `“${q}”` : "this search";
  if (shown === 0) return `Nothing answers ${words}.`;
  if (bestShare !== undefined) return `The best result matches only ${Math.round(bestShare * 100)} % of ${q ? `the words in “${q}”` : "the words searched"}.`;
  return `Only ${shown} ${shown === 1 ? "result answers" : "results answer"} ${words} well.`;
}

interface SparseNoteProps {
  url: URL;
  q: string;
  sparse: SparseAnswer;
  /** No result is shown: the note is the "no results" message too. */
  empty: boolean;
}

export function SparseNote({ url, q, sparse, empty }: SparseNoteProps) {
  const links = sparse.suggestions.flatMap((s) => {
    const href = webUrl(s.searchUrl);
    return href ? [{ ...s, href }] : [];
  });
  const nearest = sparse.nearestType;
  return (
    <div class={empty ? "sparse-note no-results" : "sparse-note"}>
      <p class="sparse-why">
        {sparseWhy(sparse, q)}
        {empty && ` ${NO_RESULTS_ADVICE}`}
      </p>
      {nearest && (
        <p class="sparse-type">
          <a href={withParams(url, { type: nearest })}>Search {TYPE_NAMES[nearest].many} instead</a>
        </p>
      )}
      {links.length > 0 && (
        <div class="sparse-further">
          <span id="sparse-further">Look further:</span>
          <ul aria-labelledby="sparse-further">
            {links.map((s) => (
              <li key={s.provider}>
                <a href={s.href} target="_blank" rel="noopener">
                  {s.label}
                  <span aria-hidden="true" class="sparse-away">
                    ↗
                  </span>
                  <span class="visually-hidden"> (opens a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
