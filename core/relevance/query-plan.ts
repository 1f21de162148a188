import type { AssetType } from "../schemas/index.ts";
import { joined } from "../text/analyze.ts";
import { stem } from "../text/stem.ts";
import { SYNONYM_EXPANSIONS, SYNONYM_GROUPS } from "../text/synonyms.ts";
import { TYPE_WORDS } from "../text/type-words.ts";
import { words as splitWords } from "../text/words.ts";
import { SCORING } from "./scoring.ts";

export interface QueryWord {
  /** The word as typed, folded. */
  text: string;
  /** Its stem: the term it matches exactly. */
  term: string;
  /** False for a type word: it scores where it matches but a result need not hold it. */
  required: boolean;
  /** A type word's asset types (TYPE_WORDS): an asset of one of them holds the word as much as its text would. */
  types?: readonly AssetType[];
}

/** A term of the records that stands for one or more query words. */
export interface Expansion {
  term: string;
  kind: "exact" | "synonym";
  /** Indexes of the query words it stands for (a pair written together or a phrase: several). */
  words: readonly number[];
}

/** What a query asks for, worked out once and applied alike to index hits and live results. */
export interface QueryPlan {
  words: QueryWord[];
  expansions: Expansion[];
  /** The last word, also matched as the start of longer terms; absent when shorter than SCORING.prefixMinLength. */
  prefix?: { word: number; term: string };
  /** Asset types the query's type words name: a soft boost. */
  boost: AssetType[];
  /** Typo tolerance on (see withTypos). */
  typos: boolean;
}

/** A phrase of the tables as stems, and the one term it is matched as on the record side. */
const stems = (phrase: string) => splitWords(phrase).map(stem);
function recordTerm(phrase: string): string {
  const ws = splitWords(phrase);
  if (ws.length === 1) return stem(ws[0]!);
  if (ws.length === 2) return joined(ws[0]!, ws[1]!);
  throw new Error(`synonym '${phrase}': a record-side synonym is one word or two`);
}

interface Synonym {
  key: string[];
  terms: string[];
}

/** The synonym tables analysed: by the first stem of their query-side phrase. */
const SYNONYMS: ReadonlyMap<string, Synonym[]> = (() => {
  const out = new Map<string, Synonym[]>();
  const add = (from: string, to: readonly string[]) => {
    const key = stems(from);
    const list = out.get(key[0]!) ?? [];
    list.push({ key, terms: to.map(recordTerm) });
    out.set(key[0]!, list);
  };
  for (const group of SYNONYM_GROUPS)
    for (const member of group)
      add(
        member,
        group.filter((m) => m !== member),
      );
  for (const [from, to] of Object.entries(SYNONYM_EXPANSIONS)) add(from, to);
  return out;
})();

const TYPES_BY_STEM: ReadonlyMap<string, readonly AssetType[]> = new Map(Object.entries(TYPE_WORDS).map(([word, types]) => [stem(word), types]));

/** The synonyms of the phrases starting at word `i`, each standing for the words of its phrase. */
function synonymsAt(ws: QueryWord[], i: number): Expansion[] {
  const out: Expansion[] = [];
  for (const { key, terms } of SYNONYMS.get(ws[i]!.term) ?? []) {
    if (!key.every((k, j) => ws[i + j]?.term === k)) continue;
    const covered = key.map((_, j) => i + j);
    for (const term of terms) out.push({ term, kind: "synonym", words: covered });
  }
  return out;
}

/** Drops an expansion whose term already stands, at least as well, for the same words. */
function unique(expansions: Expansion[]): Expansion[] {
  const seen = new Set<string>();
  return expansions.filter((e) => {
    const key = `${e.term}|${e.words.join(",")}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Reads a query: its words (folded, stemmed; type words optional), the terms each may be matched
 * by (the word itself, adjacent words written together, synonyms), the prefix of the last word and
 * the types to boost. Typos stay off; the index turns them on when exact matching finds too little.
 */
export function planQuery(q: string): QueryPlan {
  const ws: QueryWord[] = splitWords(q).map((text) => {
    const term = stem(text);
    const types = TYPES_BY_STEM.get(term);
    return types ? { text, term, required: false, types } : { text, term, required: true };
  });
  const exact: Expansion[] = ws.map((w, i) => ({ term: w.term, kind: "exact", words: [i] }));
  const pairs: Expansion[] = ws.slice(1).map((w, i) => ({ term: joined(ws[i]!.text, w.text), kind: "exact", words: [i, i + 1] }));
  const synonyms = ws.flatMap((_, i) => synonymsAt(ws, i));
  const last = ws.length - 1;
  const boost = [...new Set(ws.flatMap((w) => TYPES_BY_STEM.get(w.term) ?? []))];
  return {
    words: ws,
    expansions: unique([...exact, ...pairs, ...synonyms]),
    ...(last >= 0 && ws[last]!.text.length >= SCORING.prefixMinLength ? { prefix: { word: last, term: ws[last]!.term } } : {}),
    boost,
    typos: false,
  };
}

/**
 * Turns typo tolerance on when exact and stemmed matching found too little: fewer than `wanted`
 * assets match every required word. Only words of SCORING.typo.minLength letters or more get typos.
 */
export function gateTypos(plan: QueryPlan, complete: number, wanted: number): QueryPlan {
  const allowed = plan.words.some((w) => w.required && w.text.length >= SCORING.typo.minLength);
  return allowed && complete < wanted ? { ...plan, typos: true } : plan;
}
