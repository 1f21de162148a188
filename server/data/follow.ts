/**
 * The server follows its publication (DATA_URL, else DATA_DIR's `current.json`): every
 * DATA_POLL_SECONDS it asks whether the publication changed; a new one is fetched, checked against
 * its meta, read and built between requests, then put in service in one synchronous step. Any
 * failure keeps the data in service, and is logged, counted and shown in /health.
 */
import { Counter } from "prom-client";
import { type IndexMeta, type Published, parseSetInTurns, type SetDocuments, type SetFiles } from "../../core/publication/published.ts";
import type { DataStatus } from "../../core/schemas/index.ts";
import { type Logger, noLog } from "../log.ts";
import type { Metrics } from "../stats/metrics.ts";

/** Where the data in service was read: DATA_URL, or DATA_DIR (and which of its sets). */
export type DataOrigin = { source: "url" } | { source: "dir"; set?: string };

/** A new publication, fetched but not yet checked nor in service. */
export interface DataChange {
  /** Without `index.json.gz` when the set has an index file, then at `indexPath` on this machine. */
  files: SetFiles | SetDocuments;
  meta: IndexMeta | undefined;
  indexPath?: string;
  origin: DataOrigin;
  /** Called once the change is in service: the source then compares later polls with it. */
  commit(): void;
}

export interface DataSource {
  /** The new publication, or undefined when it is the one in service. Throws when it cannot tell. */
  poll(): Promise<DataChange | undefined>;
  /** Releases connections; a poll under way fails. */
  close?(): Promise<void>;
}

export type CheckOutcome = "unchanged" | "updated" | "failed";
export const CHECK_OUTCOMES: readonly CheckOutcome[] = ["unchanged", "updated", "failed"];
export const DATA_CHECKS_METRIC = "asset_search_data_checks_total";

export interface DataFollower {
  /**
   * Checks the source now and puts a new publication in service. A call made while a check runs
   * gets the check that starts after it (so it sees the source as it is now); never rejects.
   */
  checkNow(): Promise<CheckOutcome>;
  /** Starts polling every `pollSeconds` (and watching, when given); nothing when `pollSeconds` is 0. Timers keep no process alive. */
  start(): void;
  /** Stops polling and watching; a check under way is cut. */
  stop(): Promise<void>;
  status(): DataStatus;
  /** Whether a published set is in service (GET /ready): false while a server started empty waits for its first. */
  loaded(): boolean;
}

export interface FollowOptions {
  /** The data in service: its fields are replaced together, so every holder of the object sees the new data. */
  published: Published;
  /** Where `published` was read. */
  origin: DataOrigin;
  /** False when `published` is empty because nothing was published yet: the first set put in service makes it true. */
  loaded?: boolean;
  source: DataSource;
  /** DATA_URL, shown in the status when set. */
  url?: string;
  pollSeconds: number;
  now?: () => Date;
  /** Counts checks by outcome in this registry (`asset_search_data_checks_total`). */
  metrics?: Metrics;
  /** Also checks when `onChange` is called (DATA_DIR's watcher); returns what to close on stop. */
  watch?: (onChange: () => void) => { close(): void } | undefined;
  /** Where a swap and a failed check are logged (server/log.ts); unset = nowhere. */
  log?: Logger;
}

/** The set a swap put in service, when DATA_DIR names it (a publication at DATA_URL is named by its URL). */
const setOf = (origin: DataOrigin): { set?: string } => (origin.source === "dir" && origin.set ? { set: origin.set } : {});

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

function checksCounter(metrics: Metrics): Counter {
  const counter = new Counter({
    name: DATA_CHECKS_METRIC,
    help: "Checks for a new publication (DATA_URL or DATA_DIR), by outcome (unchanged, updated, failed: the data in service stayed).",
    labelNames: ["outcome"],
    registers: [metrics.registry],
  });
  for (const outcome of CHECK_OUTCOMES) counter.inc({ outcome }, 0);
  return counter;
}

function logSwap(log: Logger, origin: DataOrigin, next: Published, url: string | undefined): void {
  const { documentCount: assets, builtAt } = next.index;
  log.info(
    { event: "data_swap", ...setOf(origin), ...(url ? { url } : {}), assets, builtAt },
    `data: now serving ${assets} assets built ${builtAt} from ${url ?? "DATA_DIR"}`,
  );
}

/** `run` one at a time: a call made while a run is under way gets the run that starts after it, shared with the calls made meanwhile. */
function coalesced<T>(run: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  let queued: Promise<T> | undefined;
  const call = (): Promise<T> => {
    if (!running) {
      running = run().finally(() => {
        running = undefined;
      });
      return running;
    }
    queued ??= running.then(() => {
      queued = undefined;
      return call();
    });
    return queued;
  };
  return call;
}

export function followData(options: FollowOptions): DataFollower {
  const { published, source, pollSeconds } = options;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? noLog;
  const where = options.url ?? "DATA_DIR";
  const counter = options.metrics && checksCounter(options.metrics);

  let inService = { origin: options.origin, loadedAt: now().toISOString() };
  let loaded = options.loaded ?? true;
  let lastCheckAt: string | null = null;
  let lastError: { at: string; message: string } | null = null;
  let timer: NodeJS.Timeout | undefined;
  let watcher: { close(): void } | undefined;
  let stopped = false;

  async function check(): Promise<CheckOutcome> {
    const at = now().toISOString();
    let outcome: CheckOutcome;
    try {
      const change = await source.poll();
      if (change) {
        // Checked against the meta and built between requests (core/publication/published.ts parseSetInTurns).
        const next = await parseSetInTurns(change.files, change.meta, change.indexPath);
        // One synchronous step: a request sees the whole old set or the whole new one.
        Object.assign(published, next);
        change.commit();
        inService = { origin: change.origin, loadedAt: now().toISOString() };
        loaded = true;
        logSwap(log, change.origin, next, options.url);
      }
      outcome = change ? "updated" : "unchanged";
      lastError = null;
    } catch (err) {
      outcome = "failed";
      lastError = { at, message: message(err) };
      if (!stopped) log.warn({ event: "data_check_failed", error: message(err) }, `data: kept the data in service; ${where} failed`);
    }
    lastCheckAt = at;
    counter?.inc({ outcome });
    return outcome;
  }

  const checkNow = coalesced(check);

  function schedule(): void {
    timer = setTimeout(() => {
      void checkNow().finally(() => {
        if (!stopped) schedule();
      });
    }, pollSeconds * 1000);
    timer.unref();
  }

  return {
    checkNow,
    start() {
      if (pollSeconds === 0 || timer || stopped) return;
      schedule();
      watcher = options.watch?.(() => void checkNow());
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      watcher?.close();
      await source.close?.();
    },
    loaded: () => loaded,
    status(): DataStatus {
      const { index } = published;
      return {
        ...inService.origin,
        ...(options.url ? { url: options.url } : {}),
        builtAt: index.builtAt,
        ageSeconds: Math.max(0, Math.floor((now().getTime() - Date.parse(index.builtAt)) / 1000)),
        assets: index.documentCount,
        loadedAt: inService.loadedAt,
        pollSeconds,
        lastCheckAt,
        lastError,
      };
    },
  };
}
