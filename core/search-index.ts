import { gunzipSync, gzipSync } from "node:zlib";
import SearchableMap from "minisearch/SearchableMap";
import { type CorpusStats, fieldSaturation } from "./bm25.ts";
import { carries, type FilterKey } from "./filters.ts";
import { BROWSE_MATCH, type DocMatch, keeps, MatchBuilder, wordWeights } from "./match.ts";
import { planQuery, type QueryPlan } from "./query-plan.ts";
import { compareTies, orderHits } from "./ranking.ts";
import type { Asset } from "./schemas/index.ts";
import { type TermUse, termTable, vocabularyOf } from "./term-table.ts";
import { analyze, FIELDS } from "./text/analyze.ts";
import { isWished, type TypeWish, typeWish } from "./type-match.ts";

export interface IndexFilter {
  providers?: ReadonlySet<string>;
  types?: ReadonlySet<string>;
  /** Sources whose listings are packs: with "pack" in `types`, all their assets match. */
  packProviders?: ReadonlySet<string>;
  free?: boolean;
  downloadable?: boolean;
  /** Any further condition (the search's filters, core/filters.ts). */
  keep?: (asset: Asset) => boolean;
}

export interface IndexHit {
  asset: Asset;
  match: DocMatch;
}

/** A term's documents and, for each, the term's weighted field saturation there (query-independent, so computed once). */
interface Postings {
  docs: number[];
  saturations: number[];
}

/** An asset found by its type alone, by a query of type words only. */
const TYPE_MATCH: DocMatch = { coverage: 1, exactCoverage: 1, quality: 0, text: 0 };

const passes = (a: Asset, filter: IndexFilter): boolean =>
  (!filter.providers || filter.providers.has(a.provider)) &&
  (!filter.types || filter.types.has(a.type) || (filter.types.has("pack") && filter.packProviders?.has(a.provider) === true)) &&
  (!filter.free || a.price?.free === true) &&
  (!filter.downloadable || a.downloadable) &&
  (!filter.keep || filter.keep(a));

/**
 * The prebuilt index of the indexed sources: the asset records, and built from them when loaded,
 * their terms with postings, their words (MiniSearch's radix tree, for prefix and typo look-ups)
 * and the statistics text relevance reads (CorpusStats).
 */
export class AssetIndex implements CorpusStats {
  private readonly byId: Map<string, Asset>;
  private readonly terms = new SearchableMap<Postings>();
  /** The records' words, without the pairs written together: prefixes and typos are looked up here. */
  private readonly words = new SearchableMap<true>();
  readonly averageLengths: number[];
  /** Document numbers in tie-break order, so that hits come out in it. */
  private readonly tieOrder: number[];
  /** Per filter key, the sources some record of which carries its field: the others cannot apply it. */
  private readonly carrying = new Map<FilterKey, ReadonlySet<string>>();

  private constructor(
    readonly assets: Asset[],
    readonly builtAt: string,
  ) {
    this.byId = new Map(assets.map((a) => [a.id, a]));
    const docs = assets.map(analyze);
    this.averageLengths = FIELDS.map((_, f) => docs.reduce((sum, d) => sum + d.lengths[f]!, 0) / Math.max(docs.length, 1));
    docs.forEach((doc, i) => {
      for (const word of doc.words) this.words.set(word, true);
      for (const [term, counts] of doc.terms) {
        const saturation = fieldSaturation(counts, doc.lengths, this);
        const postings = this.terms.get(term);
        if (postings) {
          postings.docs.push(i);
          postings.saturations.push(saturation);
        } else this.terms.set(term, { docs: [i], saturations: [saturation] });
      }
    });
    this.tieOrder = assets.map((_, i) => i).sort((a, b) => compareTies(assets[a]!, assets[b]!));
  }

  static build(assets: Asset[], builtAt = new Date().toISOString()): AssetIndex {
    return new AssetIndex([...new Map(assets.map((a) => [a.id, a])).values()], builtAt);
  }

  static empty(): AssetIndex {
    return AssetIndex.build([], new Date(0).toISOString());
  }

  /** Reads `index.json.gz` as written by `serialize`; the `index` of files written before is not read. */
  static deserialize(gz: Buffer): AssetIndex {
    const data = JSON.parse(gunzipSync(gz).toString("utf8")) as { builtAt: string; assets: Asset[] };
    return new AssetIndex(data.assets, data.builtAt);
  }

  /** The records only: the terms are rebuilt when loaded, so a change of text analysis needs no new file. */
  serialize(): Buffer {
    return gzipSync(JSON.stringify({ builtAt: this.builtAt, assets: this.assets }));
  }

  get(id: string): Asset | undefined {
    return this.byId.get(id);
  }

  get documentCount(): number {
    return this.assets.length;
  }

  /** The sources of which some record carries the field `key` reads (core/filters.ts). */
  sourcesCarrying(key: FilterKey): ReadonlySet<string> {
    let found = this.carrying.get(key);
    if (!found) {
      found = new Set(this.assets.filter((a) => carries(a, key)).map((a) => a.provider));
      this.carrying.set(key, found);
    }
    return found;
  }

  documentFrequency(term: string): number {
    return this.terms.get(term)?.docs.length ?? 0;
  }

  /**
   * The one index ranking (core/ranking.ts orderHits) of the assets the plan finds, each with its
   * match: those holding enough of the required words (`keeps`), with typos only when the plan says
   * so. A query without words finds every asset; one of type words only, every asset of the wished
   * types and every asset holding one of the words. `wish` defaults to the type words' types.
   */
  search(query: string | QueryPlan, filter: IndexFilter = {}, wish?: TypeWish): IndexHit[] {
    const plan = typeof query === "string" ? planQuery(query) : query;
    const wished = wish ?? typeWish([], plan, new Set());
    return orderHits(plan.words.length ? this.matching(plan, filter, wished) : this.browsing(filter), wished);
  }

  private browsing(filter: IndexFilter): IndexHit[] {
    return this.tieOrder
      .map((doc) => this.assets[doc]!)
      .filter((a) => passes(a, filter))
      .map((asset) => ({ asset, match: BROWSE_MATCH }));
  }

  /**
   * Term by term over the postings of the terms the plan meets. While some word is required, terms
   * standing only for type words add to the documents other terms found but find none themselves.
   */
  private matching(plan: QueryPlan, filter: IndexFilter, wish: TypeWish): IndexHit[] {
    const anyRequired = plan.words.some((w) => w.required);
    const builders: (MatchBuilder | null | undefined)[] = new Array(this.assets.length);
    const found = (doc: number) => (builders[doc] ??= passes(this.assets[doc]!, filter) ? new MatchBuilder(plan.words.length) : null);
    const table = [...termTable(plan, vocabularyOf(this.words))];
    const finds = (uses: TermUse[]) => !anyRequired || uses.some((u) => u.words.some((w) => plan.words[w]!.required));
    for (const [term, uses] of table.filter(([, uses]) => finds(uses))) this.accumulate(term, uses, found);
    for (const [term, uses] of table.filter(([, uses]) => !finds(uses))) this.accumulate(term, uses, (doc) => builders[doc]);

    const weights = wordWeights(plan, this);
    const kept = keeps(plan);
    const hits: IndexHit[] = [];
    for (const doc of this.tieOrder) {
      const asset = this.assets[doc]!;
      const match = builders[doc]?.finish(plan, weights);
      if (match && kept(match)) hits.push({ asset, match });
      else if (!anyRequired && builders[doc] === undefined && isWished(asset, wish) && passes(asset, filter)) hits.push({ asset, match: TYPE_MATCH });
    }
    return hits;
  }

  private accumulate(term: string, uses: TermUse[], builderOf: (doc: number) => MatchBuilder | null | undefined): void {
    const postings = this.terms.get(term);
    if (!postings) return;
    for (let j = 0; j < postings.docs.length; j++) {
      const builder = builderOf(postings.docs[j]!);
      if (builder) for (const use of uses) builder.add(use, postings.saturations[j]!);
    }
  }
}
