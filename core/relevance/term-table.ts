import type SearchableMap from "minisearch/SearchableMap";
import type { QueryPlan } from "./query-plan.ts";
import { SCORING } from "./scoring.ts";

export type MatchKind = "exact" | "synonym" | "prefix" | "typo";

/** Which words a term of the records stands for in this query, and how. */
export interface TermUse {
  words: readonly number[];
  kind: MatchKind;
}
export type TermTable = Map<string, TermUse[]>;

/**
 * The words prefixes and typos are looked up among: the index's, or those of a set of live
 * results. Pairs written together are left out: a pair holds its first word already.
 */
export interface Vocabulary {
  /** Terms longer than `prefix` that start with it. */
  prefixed(prefix: string): Iterable<string>;
  /** Terms within `distance` edits of `term`, itself excepted. */
  near(term: string, distance: number): Iterable<string>;
}

/** A Vocabulary over MiniSearch's radix tree of words (its values are not read). */
export function vocabularyOf(tree: SearchableMap<unknown>): Vocabulary {
  return {
    prefixed: (prefix) => [...tree.atPrefix(prefix).keys()].filter((t) => t !== prefix),
    near: (term, distance) => [...tree.fuzzyGet(term, distance).keys()].filter((t) => t !== term),
  };
}

const add = (table: TermTable, term: string, use: TermUse) => {
  const uses = table.get(term);
  if (uses) uses.push(use);
  else table.set(term, [use]);
};

/** Every term of `vocabulary` the plan meets: its expansions, the last word's prefix, typos when on. */
export function termTable(plan: QueryPlan, vocabulary: Vocabulary): TermTable {
  const table: TermTable = new Map();
  for (const e of plan.expansions) add(table, e.term, { words: e.words, kind: e.kind });
  if (plan.prefix) {
    const { word, term } = plan.prefix;
    for (const t of vocabulary.prefixed(term)) add(table, t, { words: [word], kind: "prefix" });
  }
  if (plan.typos) {
    plan.words.forEach((w, i) => {
      if (!w.required || w.text.length < SCORING.typo.minLength) return;
      const distance = Math.min(SCORING.typo.maxEdits, Math.round(w.term.length * SCORING.typo.maxEditShare));
      for (const t of vocabulary.near(w.term, distance)) add(table, t, { words: [i], kind: "typo" });
    });
  }
  return table;
}
