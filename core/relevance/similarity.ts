/**
 * How related two assets are, and why, from the fields an index record holds: the rules of
 * `GET /v1/assets/{id}/similar` (core/search/similar.ts). The index holds no "pack" of its own, so a
 * pack or a numbered set shows as a series of titles (Brick Wall 04 and 29, City Kit (Industrial)
 * and (Roads), Heroicons and Heroicons Outline).
 */
import type { Asset, AssetType } from "../schemas/index.ts";
import type { SimilarReason, SimilarReasonKind } from "../schemas/similar.ts";
import { analyze, FIELDS, runTerms } from "../text/analyze.ts";
import { stem } from "../text/stem.ts";
import { fold } from "../text/words.ts";
import { type CorpusStats, idf } from "./bm25.ts";
import { SCORING } from "./scoring.ts";

/** Every tunable of similarity, with its reason. */
export const SIMILARITY = {
  /**
   * What each kind of reason weighs in the score. A series is nearly always a set made to go
   * together; the title's subject and the tags say what the asset shows; categories are broad and an
   * author (a Poly Haven photographer, Kenney) makes many unrelated things.
   */
  weights: { series: 3, subject: 2, tags: 1.5, category: 1, author: 1 },
  /** The seed's most telling terms (idf times the weight of the field holding them) that gather candidates: a bound on postings read. */
  seedTerms: 16,
  /** Of each source, at most this many postings of a term are read, its best: a common term costs no more than a rare one. */
  perSource: 128,
  /** How many of the gathered candidates have their records read and their reasons weighed, at least; 3 × the limit when more. */
  pool: 40,
  /**
   * A shared value (a tag, a category, a title word) counts only from this idf on: a word in
   * nearly every font ("latin") relates nothing. 0.95 = ln(1 + 1.59): held by at most about 39 % of the index.
   */
  minIdf: 0.95,
} as const;

/**
 * `read` remembered for the last values it was given: the same tags, categories and titles come back
 * for every seed, and folding and stemming them again would be most of a request's time.
 */
function remembered<T>(read: (value: string) => T, max = 50_000): (value: string) => T {
  const known = new Map<string, T>();
  return (value) => {
    let out = known.get(value);
    if (out === undefined) {
      if (known.size >= max) known.clear();
      out = read(value);
      known.set(value, out);
    }
    return out;
  };
}

/** A title's words as written (for the reasons) and folded (to compare), split like core/text/words.ts. */
const titleWords = remembered((title: string): { shown: string[]; folded: string[] } => {
  const shown = title
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .split(/[\s\p{P}\p{S}_]+/u)
    .filter(Boolean);
  return { shown, folded: shown.map(fold) };
});

/** A word's stem, remembered: a catalogue's tags are many words, and most come back. */
const stemOf = remembered(stem);

/** Whether a title, a tag or a category holds a word of stem `key`: only words that begin as the stem does are stemmed. */
const holdsStem = (text: string, key: string) => titleWords(text).folded.some((w) => w.startsWith(key.slice(0, 3)) && stemOf(w) === key);

const isNumber = (word: string) => /^\d+$/.test(word);

/** Texture and material are one kind of asset here, as everywhere (core/relevance/type-match.ts). */
const kindOf = (type: AssetType) => (type === "material" ? "texture" : type);

/**
 * How many leading words of two titles make a series, 0 for none: two or more shared leading words
 * (Font Awesome 6 Solid, Font Awesome 6 Regular), or one when what follows it is only a number (Bark
 * 01, Bark 07) or one title is that word and the other adds a single word (Roboto, Roboto Mono).
 */
export function seriesLength(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  if (n === 0 || a.slice(0, n).every(isNumber)) return 0;
  if (n >= 2) return n;
  const [restA, restB] = [a.slice(1), b.slice(1)];
  const numbered = restA.length <= 1 && restB.length <= 1 && [...restA, ...restB].every(isNumber) && restA.length + restB.length > 0;
  const variant = (restA.length === 0 && restB.length === 1) || (restB.length === 0 && restA.length === 1);
  return numbered || variant ? 1 : 0;
}

/** A tag, a category or an author as compared: folded, any run of punctuation and spaces one space (sans-serif = Sans Serif). */
const normal = remembered((value: string) =>
  fold(value)
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim(),
);

/** The people and studios of an author field: "Dario Barresi, Charlotte Baglioni" is two. */
const authorsOf = remembered((author: string) =>
  author
    .split(/\s*(?:,|&|\/|\band\b)\s*/i)
    .map((name) => name.trim())
    .filter(Boolean),
);

/** How telling a value is: the idf of its rarest word. */
function valueIdf(value: string, stats: CorpusStats): number {
  const { words } = runTerms(value);
  return words.length ? Math.max(...words.map((w) => idf(w, stats))) : 0;
}

/** A seed's values of one kind: what they are compared as, how they are shown, how telling each is. */
interface Values {
  keys: string[];
  shown: string[];
  weights: number[];
  total: number;
}

function valuesOf(list: readonly string[], stats: CorpusStats, keyOf: (v: string) => string, minIdf: number): Values {
  const out: Values = { keys: [], shown: [], weights: [], total: 0 };
  for (const value of list) {
    const key = keyOf(value);
    if (!key || out.keys.includes(key)) continue;
    const weight = valueIdf(value, stats);
    if (weight < minIdf) continue;
    out.keys.push(key);
    out.shown.push(value);
    out.weights.push(weight);
    out.total += weight;
  }
  return out;
}

/** What a seed asset is compared by, worked out once for all its candidates. */
export interface Seed {
  asset: Asset;
  title: { shown: string[]; folded: string[] };
  authors: Values;
  categories: Values;
  tags: Values;
  /** The title's words, stemmed as keys. */
  subject: Values;
  /** The weights of the kinds this seed can share: the score's denominator. */
  possible: number;
}

export function seedOf(asset: Asset, stats: CorpusStats): Seed {
  const { minIdf, weights } = SIMILARITY;
  const title = titleWords(asset.title);
  const authors = valuesOf(authorsOf(asset.author ?? ""), stats, normal, 0);
  const categories = valuesOf(asset.categories ?? [], stats, normal, minIdf);
  const tags = valuesOf(asset.tags, stats, normal, minIdf);
  const subjectWords = title.shown.filter((w) => !isNumber(w) && w.length > 1);
  const subject = valuesOf(subjectWords, stats, (w) => stem(fold(w)), minIdf);
  const has = {
    series: true,
    author: authors.keys.length > 0,
    category: categories.keys.length > 0,
    tags: tags.keys.length > 0,
    subject: subject.keys.length > 0,
  };
  const possible = (Object.keys(has) as (keyof typeof has)[]).reduce((sum, k) => sum + (has[k] ? weights[k] : 0), 0);
  return { asset, title, authors, categories, tags, subject, possible };
}

/**
 * The seed's terms that gather candidates from the index, each with its weight: its idf times the
 * weight of the weightiest field that holds it (core/relevance/scoring.ts), the description left out
 * (long prose relates little). A term only the seed holds finds nothing and is skipped.
 */
export function seedTerms(asset: Asset, stats: CorpusStats): Map<string, number> {
  const description = FIELDS.indexOf("description");
  const weighed: [string, number][] = [];
  for (const [term, counts] of analyze(asset).terms) {
    const field = Math.max(...counts.map((c, f) => (c > 0 && f !== description ? SCORING.fields[FIELDS[f]!] : 0)));
    if (field === 0 || stats.documentFrequency(term) < 2) continue;
    weighed.push([term, idf(term, stats) * field]);
  }
  weighed.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return new Map(weighed.slice(0, SIMILARITY.seedTerms));
}

/** The seed's values a candidate shares: their shown forms and the share of the seed's weight they hold. */
function shared(seed: Values, has: (key: string) => boolean): { values: string[]; share: number } {
  const values: string[] = [];
  let sum = 0;
  seed.keys.forEach((key, i) => {
    if (!has(key)) return;
    values.push(seed.shown[i]!);
    sum += seed.weights[i]!;
  });
  return { values, share: seed.total > 0 ? sum / seed.total : 0 };
}

const list = (values: readonly string[]) => values.join(", ");

/** How related `candidate` is to the seed, 0..1, and why (the weightiest reason first); no reasons: unrelated. */
export function relate(seed: Seed, candidate: Asset): { score: number; reasons: SimilarReason[] } {
  const { weights } = SIMILARITY;
  const found: { kind: SimilarReasonKind; weight: number; reason: SimilarReason }[] = [];
  const add = (kind: SimilarReasonKind, share: number, values: string[], detail: string) => {
    if (share > 0 && values.length) found.push({ kind, weight: weights[kind] * share, reason: { kind, detail, values } });
  };

  const other = titleWords(candidate.title);
  // A series is of one kind of asset: a font called Metal is no part of the Metal Plate textures.
  const n = kindOf(seed.asset.type) === kindOf(candidate.type) ? seriesLength(seed.title.folded, other.folded) : 0;
  // Two titles alike to the end (Brick Wall 04 on two sites) are of the series their words before the number name.
  let named = n;
  while (n === seed.title.folded.length && n === other.folded.length && named > 1 && isNumber(seed.title.folded[named - 1]!)) named--;
  const series = seed.title.shown.slice(0, named).join(" ");
  add("series", n > 0 ? 1 : 0, [series], `same series: ${series}`);

  const authors = new Set(authorsOf(candidate.author ?? "").map(normal));
  const author = shared(seed.authors, (k) => authors.has(k));
  add("author", author.share, author.values, `same author: ${list(author.values)}`);

  const categories = new Set((candidate.categories ?? []).map(normal));
  const category = shared(seed.categories, (k) => categories.has(k));
  add("category", category.share, category.values, `same category: ${list(category.values)}`);

  const tagSet = new Set(candidate.tags.map(normal));
  const tags = shared(seed.tags, (k) => tagSet.has(k));
  add("tags", tags.share, tags.values, `shared tags: ${list(tags.values)}`);

  // The subject: the seed's title words in the candidate's title, tags or categories; those of the series are said by the series.
  const runs = [candidate.title, ...candidate.tags, ...(candidate.categories ?? [])];
  const subject = shared(seed.subject, (k) => runs.some((run) => holdsStem(run, k)));
  const inSeries = new Set(seed.title.folded.slice(0, n).map(stemOf));
  const beyond = subject.values.filter((w) => !inSeries.has(stemOf(fold(w))));
  add("subject", subject.share, beyond, `same subject: ${list(beyond)}`);
  // Title words of the series alone still count, unsaid.
  const unsaid = beyond.length ? 0 : weights.subject * subject.share;

  const total = found.reduce((sum, f) => sum + f.weight, unsaid);
  const reasons = found.sort((a, b) => b.weight - a.weight).map((f) => f.reason);
  return { score: reasons.length && seed.possible > 0 ? Math.min(1, total / seed.possible) : 0, reasons };
}
