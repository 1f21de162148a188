import pLimit from "p-limit";
import { UpstreamError } from "../http/types.ts";
import { type AssetIndex, BEST_POSTINGS_PER_SOURCE, type IndexHit } from "../index/search-index.ts";
import { activeFilters, asked, cannotApply, compareBySort, licenseRefusal, passesFilters, type SearchFilters, type Sort, sortHits } from "../model/filters.ts";
import type { Runtime } from "../model/runtime.ts";
import type { SearchParams } from "../model/search-params.ts";
import type { IndexedSource, LiveSource, Source, SourceQuery } from "../model/source.ts";
import { toSourceError } from "../model/source-error.ts";
import { dedupe, type Listing } from "../relevance/dedupe.ts";
import { matchAssets, NO_MATCH } from "../relevance/match.ts";
import { gateTypos, type QueryPlan } from "../relevance/query-plan.ts";
import { type AnswerTest, querySharer, type RankCandidate, type RankedMatch, rankWithFloor } from "../relevance/ranking.ts";
import { isOfTypes } from "../relevance/type-match.ts";
import type { Asset, ProviderReport, SearchResponse, SearchStreamIndex, SearchStreamSource } from "../schemas/index.ts";
import { timeBox } from "../time-box.ts";
import { asResponse, type SearchAnswer, scored } from "./answer.ts";
import type { BreakerRegistry } from "./circuit-breaker.ts";
import { countFacets } from "./facets.ts";
import { planSearch, type SearchPlan } from "./plan.ts";
import { sparseAnswer } from "./sparse.ts";

export interface SearchDeps {
  sources: readonly Source[];
  index: AssetIndex;
  runtime: Runtime;
  breakers: BreakerRegistry;
  /** Told of every source that was actually asked (for usage statistics). */
  onSourceResult?: (report: ProviderReport) => void;
}

/**
 * What a caller may add to one search: `signal` ends it early (the client went away: the live
 * sources' requests are aborted), `observer` hears the index's answer and each live source's as
 * they come, each ranked among itself (server/routes/search-stream.ts streams them).
 */
export interface SearchOptions {
  signal?: AbortSignal;
  observer?: SearchObserver;
}

export interface SearchObserver {
  index?(answer: SearchStreamIndex): void;
  source?(answer: SearchStreamSource): void;
}

/** `cancelled`: the caller's signal ended it, which says nothing about the source's health. */
type Outcome = { report: ProviderReport; listings: Asset[]; cancelled?: boolean };

/** Why a source is not asked for this query, or undefined when it is. */
function skipReason(source: Source, { query, wish }: SearchPlan, keys: Record<string, string | undefined>, index: AssetIndex): string | undefined {
  const types = new Set(query.types);
  if (types.size && !source.assetTypes.some((type) => isOfTypes({ type, provider: source.id }, types, wish.packProviders)))
    return `has no ${query.types.join("/")} assets`;
  if (query.free && source.pricing === "paid") return "paid only";
  if (query.downloadable && !source.supportsDownload) return "no direct downloads";
  // An indexed source needs its key to be crawled, not to be searched: the index already holds it.
  if (source.mode === "live" && source.key?.required && !keys[source.key.env]) return `needs ${source.key.env}`;
  const refused = source.license && licenseRefusal(source.license, query.filters);
  if (refused) return refused;
  const missing = asked(query.filters, query.sort).find((key) =>
    source.mode === "indexed"
      ? !index.sourcesCarrying(key).has(source.id)
      : !source.filtering?.upstream.includes(key) && !source.filtering?.listed.includes(key),
  );
  return missing && cannotApply(missing);
}

const report = (source: Source, fields: Omit<ProviderReport, "provider" | "name">): ProviderReport => ({
  provider: source.id,
  name: source.name,
  ...fields,
});

interface IndexedOutcome {
  outcomes: Outcome[];
  /** Every hit, for the facets: read only when asked, a broad query over a large index having many. */
  everyHit: () => IndexHit[];
  /** The sources' pages, ranked by the one index ranking: their source rank is their place in it. */
  candidates: RankCandidate[];
  /** The plan as the index searched it (typos on or off), for the live results too. */
  plan: QueryPlan;
  /** The index's best hit, on whichever page: the junk floor's measure (RankQuery.best). */
  best?: RankCandidate;
}

/**
 * Indexed sources: one index query and its one ranking, then each source's own slice at the
 * per-source offset. In relevance order without facets or filters reading the records, the index
 * reads each term's best postings per source only (BEST_POSTINGS_PER_SOURCE); any other search
 * needs every hit.
 */
function searchIndexed(sources: IndexedSource[], { query, words: plan, wish, params }: SearchPlan, index: AssetIndex, elapsed: () => number): IndexedOutcome {
  const facets = params.facets === true;
  const wanted = query.offset + query.limit;
  if (!sources.length) return { outcomes: [], everyHit: () => [], candidates: [], plan: gateTypos(plan, 0, wanted) };
  const filterNames = activeFilters(query.filters);
  const started = elapsed();
  const filter = {
    providers: new Set(sources.map((s) => s.id)),
    ...(query.types.length ? { types: new Set(query.types) } : {}),
    packProviders: wish.packProviders,
    free: query.free,
    downloadable: query.downloadable,
    ...(filterNames.length ? { keep: (a: Asset) => passesFilters(a, query.filters, filterNames) } : {}),
  };
  const bounded = query.sort === "relevance" && !facets && !filterNames.length;
  const options = { wish, ...(bounded ? { limit: BEST_POSTINGS_PER_SOURCE } : {}) };
  let found = index.find(plan, filter, options);
  const searched = gateTypos(plan, found.complete, wanted);
  if (searched.typos) found = index.find(searched, filter, options);
  // In relevance order only each source's first pages are read; another order reads every hit to sort it.
  const hits = query.sort === "relevance" ? found.top(wanted) : sortHits(found.all(), query.sort);
  const totals = found.totals();
  const atLeast = found.atLeast();
  const tookMs = Math.round(elapsed() - started);
  const bySource = new Map<string, IndexHit[]>();
  for (const h of hits) {
    const list = bySource.get(h.asset.provider);
    if (list) list.push(h);
    else bySource.set(h.asset.provider, [h]);
  }
  const pages = new Set<Asset>();
  const outcomes = sources.map((source) => {
    const listings = (bySource.get(source.id) ?? []).slice(query.offset, query.offset + query.limit).map((h) => h.asset);
    for (const a of listings) pages.add(a);
    const total = { total: totals.get(source.id) ?? 0, ...(atLeast.has(source.id) ? { totalAtLeast: true } : {}) };
    return { report: report(source, { status: "ok", count: listings.length, ...total, tookMs }), listings };
  });
  const onPages = hits.filter((h) => pages.has(h.asset));
  const candidates = onPages.map((h, i) => ({ asset: h.asset, match: h.match, sourceRank: i, sourceCount: onPages.length }));
  const first = query.sort === "relevance" ? hits[0] : found.top(1)[0];
  const best = first && { asset: first.asset, match: first.match, sourceRank: 0, sourceCount: Math.max(onPages.length, 1) };
  return { outcomes, everyHit: () => found.all(), candidates, plan: searched, ...(best ? { best } : {}) };
}

/** Whether the error, or one it wraps, is a replay miss. */
function isUnrecorded(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) if (e instanceof UpstreamError && e.kind === "unrecorded") return true;
  return false;
}

/** One live source under its own timeout, the overall deadline and its circuit breaker. */
async function searchLive(source: LiveSource, query: SourceQuery, deps: SearchDeps, deadline: AbortSignal, cancel?: AbortSignal): Promise<Outcome> {
  const { config } = deps.runtime;
  const breaker = deps.breakers.for(source.id);
  if (!breaker.tryAcquire()) {
    return { report: report(source, { status: "skipped", count: 0, error: "cooling down after repeated failures", tookMs: 0 }), listings: [] };
  }
  const { elapsed } = deps.runtime;
  const started = elapsed();
  const took = () => Math.round(elapsed() - started);
  const box = timeBox(config.sourceTimeoutMs, deadline);
  const { signal } = box;
  // A source that ignores its signal still loses the race: the search never waits past the timeout.
  const timedOut = new Promise<"timeout">((resolve) => signal.addEventListener("abort", () => resolve("timeout"), { once: true }));
  const cancelled = (): Outcome | undefined => {
    if (!cancel?.aborted) return undefined;
    breaker.release();
    return {
      report: report(source, { status: "error", count: 0, error: "the search was cancelled before the source answered", tookMs: took() }),
      listings: [],
      cancelled: true,
    };
  };
  try {
    const result = await Promise.race([source.search(query, deps.runtime.context(signal)), timedOut]);
    const gone = cancelled();
    if (gone) return gone;
    if (result === "timeout") {
      breaker.failure();
      return { report: report(source, { status: "timeout", count: 0, error: `no answer within ${config.sourceTimeoutMs} ms`, tookMs: took() }), listings: [] };
    }
    breaker.success();
    const { listings, narrowed } = asListed(source, result.assets, query);
    // The site's own total counts what it matched before the search narrowed its answer.
    const total = narrowed ? undefined : result.total;
    return { report: report(source, { status: "ok", count: listings.length, ...(total !== undefined ? { total } : {}), tookMs: took() }), listings };
  } catch (err) {
    const gone = cancelled();
    if (gone) return gone;
    // A query replay mode has no recording of says nothing about the site's health.
    if (isUnrecorded(err)) breaker.release();
    else breaker.failure();
    const failure = toSourceError(source.id, err);
    const timeout = signal.aborted || failure.kind === "timeout";
    return {
      report: report(
        source,
        timeout
          ? { status: "timeout", count: 0, error: `no answer within ${config.sourceTimeoutMs} ms`, tookMs: took() }
          : { status: "error", count: 0, error: failure.message.slice(0, 300), tookMs: took() },
      ),
      listings: [],
    };
  } finally {
    box.dispose();
  }
}

/**
 * A live source's answer under the filters its listings carry (the site may have applied them
 * already; checking again costs little), in the order asked where the listings say, to the limit.
 */
function asListed(source: LiveSource, assets: Asset[], query: SourceQuery): { listings: Asset[]; narrowed: boolean } {
  const listed = source.filtering?.listed ?? [];
  const kept = assets.filter((a) => passesFilters(a, query.filters, listed.filter((k) => k in query.filters) as (keyof SearchFilters)[]));
  const ordered = query.sort === "name" || listed.includes(query.sort as "newest") ? sortAssets(kept, query.sort) : kept;
  return { listings: ordered.slice(0, query.limit), narrowed: kept.length < assets.length };
}

/** Stable: what the sort cannot tell apart keeps its order. */
const sortAssets = (assets: Asset[], sort: Sort): Asset[] => (sort === "relevance" ? assets : [...assets].sort((a, b) => compareBySort(sort, a, b)));
const sortRanked = <R extends { asset: Asset }>(ranked: R[], sort: Sort): R[] =>
  sort === "relevance" ? ranked : [...ranked].sort((a, b) => compareBySort(sort, a.asset, b.asset));

/**
 * The live sources in parallel, under the overall deadline, which the caller's signal ends early
 * (none to keep when no live source is asked); `answered` hears each outcome as it comes.
 */
async function searchLiveSources(
  live: LiveSource[],
  query: SourceQuery,
  deps: SearchDeps,
  cancel: AbortSignal | undefined,
  answered: (o: Outcome) => void,
): Promise<Outcome[]> {
  if (!live.length) return [];
  const limit = pLimit(deps.runtime.config.searchConcurrency);
  const deadline = timeBox(deps.runtime.config.searchDeadlineMs, cancel);
  const one = async (s: LiveSource) => {
    const outcome = await searchLive(s, query, deps, deadline.signal, cancel);
    answered(outcome);
    return outcome;
  };
  return Promise.all(live.map((s) => limit(() => one(s)))).finally(deadline.dispose);
}

/** A live source's listings as candidates: its order is its source rank. */
const liveCandidates = (listings: Asset[]): RankCandidate[] => listings.map((asset, i) => ({ asset, sourceRank: i, sourceCount: listings.length }));

/** The aggregated search, its results as the contract shows them (searchRanked). */
export const searchAll = async (params: SearchParams, deps: SearchDeps, options: SearchOptions = {}): Promise<SearchResponse> =>
  asResponse(await searchRanked(params, deps, options));

/**
 * Aggregated search: pick sources, query the index and fan out to live sources in
 * parallel, merge, de-duplicate, rank, page. A failing source never fails the search.
 * `options` never change the answer: they only end it early or hear its parts as they come.
 */
export async function searchRanked(params: SearchParams, deps: SearchDeps, options: SearchOptions = {}): Promise<SearchAnswer> {
  const { config } = deps.runtime;
  const plan = planSearch(params, deps.sources);
  const { query, wish } = plan;
  const allowed = params.providers.length ? new Set(params.providers) : undefined;
  const considered = deps.sources.filter((s) => (!allowed || allowed.has(s.id)) && !params.exclude.includes(s.id));

  const outcomes: Outcome[] = [];
  const indexed: IndexedSource[] = [];
  const live: LiveSource[] = [];
  for (const source of considered) {
    const reason = source.mode === "link" ? undefined : skipReason(source, plan, config.keys, deps.index);
    if (source.mode === "link") {
      outcomes.push({ report: report(source, { status: "link", count: 0, searchUrl: source.searchUrl(query), tookMs: 0 }), listings: [] });
    } else if (reason) {
      outcomes.push({ report: report(source, { status: "skipped", count: 0, error: reason, tookMs: 0 }), listings: [] });
    } else if (source.mode === "indexed") indexed.push(source);
    else live.push(source);
  }

  const fromIndex = searchIndexed(indexed, plan, deps.index, deps.runtime.elapsed);
  outcomes.push(...fromIndex.outcomes);

  const accessOf = new Map(deps.sources.map((s) => [s.id, s.access]));
  const listingOf = (asset: Asset): Listing => ({ asset, access: accessOf.get(asset.provider) ?? "scrape" });
  /** The one ranking of these candidates: de-duplicated, scored, in the order asked, to the limit. */
  const rankQuery = { q: query.q, types: params.type, plan: fromIndex.plan, wish, stats: deps.index, ...(fromIndex.best ? { best: fromIndex.best } : {}) };
  const merge = (candidates: RankCandidate[]): RankCandidate[] => {
    const rankOf = new Map(candidates.map((c) => [c.asset.id, c]));
    return dedupe(candidates.map((c) => listingOf(c.asset))).map((l) => ({ ...rankOf.get(l.asset.id)!, asset: l.asset }));
  };
  const ranking = (candidates: RankCandidate[]) => rankWithFloor(merge(candidates), rankQuery);
  const pageOf = (ranked: RankedMatch[]): RankedMatch[] => sortRanked(ranked, query.sort).slice(0, params.limit);
  const rankPage = (candidates: RankCandidate[]): RankedMatch[] => pageOf(ranking(candidates).ranked);
  /** Every hit and live listing, merged, that the junk floor of this search's ranking shows as an answer. */
  const answersOf = (isAnswer: AnswerTest, hits: IndexHit[], listings: Asset[]): Asset[] => {
    const matches = new Map([...hits.map((h) => [h.asset.id, h.match] as const), ...matchAssets(listings, fromIndex.plan, deps.index)]);
    return dedupe([...hits.map((h) => h.asset), ...listings].map(listingOf))
      .map((l) => l.asset)
      .filter((a) => isAnswer(a, matches.get(a.id) ?? NO_MATCH));
  };
  const order = new Map(deps.sources.map((s, i) => [s.id, i]));
  const inOrder = (reports: ProviderReport[]) => reports.sort((a, b) => order.get(a.provider)! - order.get(b.provider)!);

  // The optional calls evaluate their arguments only when the observer listens: a plain search ranks once.
  const { observer } = options;
  observer?.index?.({ results: rankPage(fromIndex.candidates).map(scored), providers: inOrder(outcomes.map((o) => o.report)), pending: live.map((s) => s.id) });
  const liveOutcomes = await searchLiveSources(live, query, deps, options.signal, (o) => {
    if (!o.cancelled) observer?.source?.({ provider: o.report, results: rankPage(liveCandidates(o.listings)).map(scored) });
  });
  for (const o of liveOutcomes) if (!o.cancelled) deps.onSourceResult?.(o.report);
  outcomes.push(...liveOutcomes);

  const final = ranking([...fromIndex.candidates, ...liveOutcomes.flatMap(({ listings }) => liveCandidates(listings))]);
  const results = pageOf(final.ranked);
  // The whole merged set: every index hit, not only the pages, and every live listing, as far as the junk floor shows them.
  const facets = params.facets
    ? countFacets(
        answersOf(
          final.isAnswer,
          fromIndex.everyHit(),
          liveOutcomes.flatMap((o) => o.listings),
        ),
      )
    : undefined;

  const providers = inOrder(outcomes.map((o) => o.report));
  const sparse = sparseAnswer({
    shown: results.length,
    limit: params.limit,
    offset: params.offset,
    types: params.type,
    plan: fromIndex.plan,
    providers,
    ...(query.sort === "relevance" && results[0]
      ? { bestShare: querySharer(fromIndex.plan, wish.packProviders, deps.index)(results[0].asset, results[0].match) }
      : {}),
  });
  return {
    query: params.q,
    ...(params.type.length ? { types: params.type } : {}),
    results,
    providers,
    ...(facets ? { facets } : {}),
    ...(sparse ? { sparse } : {}),
  };
}
