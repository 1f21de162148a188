import { join } from "node:path";
import { AssetIndex } from "../core/index/search-index.ts";
import type { Runtime } from "../core/model/runtime.ts";
import type { Source } from "../core/model/source.ts";
import { countsOf } from "../core/publication/meta.ts";
import { SETS_DIR } from "../core/publication/published.ts";
import { Asset, type Catalog, SourceCensus } from "../core/schemas/index.ts";
import { buildCatalog, neverCounted } from "./catalog.ts";
import { type GuardLimits, refusal, type SourceOutcome } from "./guard.ts";
import { addPoint, historyPoint } from "./history.ts";
import { type PreviousFrom, readPrevious } from "./previous.ts";
import { publishSet } from "./publish.ts";
import { PIPELINE_DEFAULTS } from "./settings.ts";

export interface PipelineOptions {
  runtime: Runtime;
  sources: readonly Source[];
  dataDir: string;
  /** One progress line per source (the job's log in pipeline/main.ts). */
  log?: (line: string) => void;
  /** Where the previous catalog, history and index are read; default DATA_DIR's live set. */
  previous?: PreviousFrom;
  /** When this run must not be published (pipeline/guard.ts); default MAX_FAILED_SHARE's and MAX_LISTINGS_DROP's defaults. */
  limits?: GuardLimits;
}

const DEFAULT_LIMITS: GuardLimits = {
  maxFailedShare: Number(PIPELINE_DEFAULTS.MAX_FAILED_SHARE),
  maxListingsDrop: Number(PIPELINE_DEFAULTS.MAX_LISTINGS_DROP),
};

/** The run's results when the guard refused to publish them: the previous publication stays live. */
export class PublicationRefused extends Error {
  constructor(
    readonly reason: string,
    readonly catalog: Catalog,
    readonly outcomes: SourceOutcome[],
  ) {
    super(reason);
    this.name = "PublicationRefused";
  }
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 300);

/**
 * The line of a source that has never been counted: a lower bound of 0 that says why, so the
 * catalog still has a line for every source. `stale` without `since` marks it as never counted.
 */
function uncounted(source: Source, reason: string, countedAt: string): SourceCensus {
  return {
    id: source.id,
    name: source.name,
    homepage: source.homepage,
    total: 0,
    atLeast: true,
    byType: {},
    method: `not counted: ${reason}`,
    countedAt,
    stale: { error: reason },
  };
}

/** Census of one source; on failure its last good numbers, marked stale. */
async function countSource(source: Source, runtime: Runtime, previous: Catalog | undefined) {
  const countedAt = runtime.now().toISOString();
  if (!source.census) {
    return { census: uncounted(source, `${source.name} publishes no count this service can read`, countedAt), status: "none" as const };
  }
  try {
    return { census: SourceCensus.parse(await source.census(runtime.context())), status: "ok" as const };
  } catch (err) {
    const last = previous?.sources.find((s) => s.id === source.id && !neverCounted(s));
    if (!last) return { census: uncounted(source, message(err), countedAt), status: "missing" as const, error: message(err) };
    const since = last.stale?.since ?? last.countedAt;
    return { census: { ...last, stale: { since, error: message(err) } }, status: "stale" as const, error: message(err) };
  }
}

/** Crawl of one indexed source; on failure the assets it had in the previous index. */
async function crawlSource(source: Source, runtime: Runtime, previous: AssetIndex | undefined) {
  if (source.mode !== "indexed") return { assets: [] as Asset[], status: "none" as const };
  try {
    const crawled = await source.crawl(runtime.context());
    const assets = crawled.filter((a) => Asset.safeParse(a).success);
    const invalid = crawled.length - assets.length;
    return { assets, status: "ok" as const, ...(invalid ? { error: `${invalid} invalid assets dropped` } : {}) };
  } catch (err) {
    const kept = [...(previous?.records() ?? [])].filter((a) => a.provider === source.id);
    return { assets: kept, status: "kept" as const, error: message(err) };
  }
}

/**
 * The daily job: census and crawl of every registered source → catalog.json,
 * catalog-history.json and index.json.gz, published together as one set with its meta (see
 * publishSet). A failing source never loses what the previous run had. Returns the set's name too.
 * Throws PublicationRefused, having written nothing, when the guard refuses the run.
 */
export async function runPipeline(options: PipelineOptions): Promise<{ catalog: Catalog; outcomes: SourceOutcome[]; set: string }> {
  const { runtime, sources, dataDir } = options;
  const log = options.log ?? (() => {});
  const previous = await readPrevious(options.previous ?? { dataDir }, log);
  const countedAt = runtime.now().toISOString();
  const censuses: SourceCensus[] = [];
  const assets: Asset[] = [];
  const outcomes: SourceOutcome[] = [];

  for (const source of sources.filter((s) => s.mode !== "link")) {
    const started = performance.now();
    const [counted, crawled] = await Promise.all([countSource(source, runtime, previous?.catalog), crawlSource(source, runtime, previous?.index)]);
    if (counted.census) censuses.push(counted.census);
    assets.push(...crawled.assets);
    const errors = [counted.error && `census: ${counted.error}`, crawled.error && `crawl: ${crawled.error}`].filter(Boolean);
    const outcome: SourceOutcome = {
      id: source.id,
      census: counted.status,
      crawl: crawled.status,
      assets: crawled.assets.length,
      ...(errors.length ? { error: errors.join("; ") } : {}),
      tookMs: Math.round(performance.now() - started),
    };
    outcomes.push(outcome);
    log(
      `${source.id}: census ${counted.status}${counted.census ? ` (${counted.census.total} listings)` : ""}, ` +
        `crawl ${crawled.status} (${crawled.assets.length} assets), ${outcome.tookMs} ms${outcome.error ? ` — ${outcome.error}` : ""}`,
    );
  }

  const catalog = buildCatalog(censuses, sources, countedAt);
  const refused = refusal(outcomes, catalog, previous?.catalog, options.limits ?? DEFAULT_LIMITS);
  if (refused) throw new PublicationRefused(refused, catalog, outcomes);
  const history = addPoint(previous?.history ?? { points: [] }, historyPoint(catalog));
  const index = AssetIndex.build(assets, countedAt);
  const contents = {
    index: index.serialize(),
    indexFile: index.fileBytes(),
    catalog: `${JSON.stringify(catalog, null, 1)}\n`,
    history: `${JSON.stringify(history, null, 1)}\n`,
  };
  const set = publishSet(dataDir, contents, countedAt, countsOf(index.countBy("provider")));
  log(`published ${join(dataDir, SETS_DIR, set)}`);
  return { catalog, outcomes, set };
}
