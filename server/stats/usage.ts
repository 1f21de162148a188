/**
 * Usage counting, aggregate counts only, in one store: the prom-client registry of
 * server/stats/metrics.ts, which `/metrics` serves and `snapshot()` reads back for `/v1/stats`.
 * Nothing here can hold a query, an address or a user agent: the inputs are a surface, asset types,
 * a yes/no, a client family, a tool name and per-source reports, and every one of them is kept
 * within a fixed or capped set of names.
 *
 * Who calls what:
 * - GET /v1/search → `search({ surface: "web" | "api", … })` (server/stats/hooks.ts)
 * - MCP `search_assets` → `search({ surface: "mcp", … })`; every MCP tool → `toolCall(name)`
 * - GET /v1/assets/{id} → `assetView()`; GET /v1/assets/{id}/download (302 or zip) → `download()`
 * - GET /v1/assets/{id}/raw/{path} → `preview()`
 * - GET / → `pageView()`
 * - every live source asked by a search (core/search/search.ts `onSourceResult`) → `sourceResult(report)`
 */
import { ASSET_TYPES, type ProviderHealth, type ProviderReport, type Ranked, type UsageWindow } from "../../core/schemas/index.ts";
import { asClientFamily, type ClientFamily } from "./client-family.ts";
import { MAX_TOOLS, Metrics, type MetricsOptions, type SourceOutcome, SURFACES, type Surface } from "./metrics.ts";

export type { ClientFamily } from "./client-family.ts";
export type { Surface } from "./metrics.ts";

export interface SearchCount {
  /** `web` (the search page), `api` (any other HTTP client) or `mcp` (the search_assets tool). */
  surface: Surface;
  /** The asset-type filter as asked (params.type); empty = `any`. */
  types: readonly string[];
  /** Whether the answer had at least one result. */
  hadResults: boolean;
  /** `clientFamily(userAgent)` of server/stats/client-family.ts — never the user agent itself. */
  client: ClientFamily;
}

/** What `/v1/stats` shows in process mode: counted since `since`, in this process only. */
export interface ProcessSnapshot {
  since: string;
  window: UsageWindow;
  clients: Ranked[];
  tools: Ranked[];
  assetTypes: Ranked[];
  /** Every source that a search reached, with its health since the start. */
  providers: ProviderHealth[];
}

export interface Usage {
  /** When counting started (the process start): `since` of process-mode stats. */
  readonly startedAt: Date;
  /** The clock of the statistics (generatedAt, the 60 s cache); injectable for tests. */
  now(): Date;
  /** The store of every count: the Prometheus metrics (served by startMetricsServer), read back by snapshot(). */
  readonly metrics: Metrics;
  search(count: SearchCount): void;
  assetView(): void;
  download(): void;
  /** One file served for a preview (the raw route): never a download. */
  preview(): void;
  /** One MCP tool call; names outside the known tools are kept up to a cap, then `other`. */
  toolCall(name: string): void;
  pageView(): void;
  /** One source's line of a search; only `ok`, `error` and `timeout` reached the source and count. */
  sourceResult(report: ProviderReport): void;
  /** Read from the registry, whose metrics answer asynchronously (prom-client's `get()`). */
  snapshot(): Promise<ProcessSnapshot>;
}

/** Latencies kept per source for p50/p95: the most recent ones, in a ring. */
export const LATENCY_SAMPLES = 1024;

/** A fixed-size ring of the most recent samples. */
export class LatencyRing {
  private readonly samples: Float64Array;
  private next = 0;
  private filled = 0;

  constructor(size = LATENCY_SAMPLES) {
    this.samples = new Float64Array(size);
  }

  add(ms: number): void {
    this.samples[this.next] = ms;
    this.next = (this.next + 1) % this.samples.length;
    this.filled = Math.min(this.filled + 1, this.samples.length);
  }

  get size(): number {
    return this.filled;
  }

  /** Nearest-rank percentiles (`q` in 0..1), rounded to whole ms; null without samples. */
  quantiles(...qs: number[]): (number | null)[] {
    if (!this.filled) return qs.map(() => null);
    const sorted = Array.from(this.samples.subarray(0, this.filled)).sort((a, b) => a - b);
    return qs.map((q) => Math.round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!));
  }
}

/** Ranked by count (highest first), then name; zero counts left out. */
export function ranked(counts: Iterable<[string, number]>): Ranked[] {
  return [...counts]
    .filter(([, count]) => count > 0)
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

type Counts = Pick<ProviderHealth, "requests" | "ok" | "errors" | "timeouts">;

/** okRate is null when nothing was asked (the contract). */
export function health(provider: string, h: Counts, p50Ms: number | null, p95Ms: number | null): ProviderHealth {
  return {
    provider,
    requests: h.requests,
    ok: h.ok,
    errors: h.errors,
    timeouts: h.timeouts,
    okRate: h.requests ? h.ok / h.requests : null,
    p50Ms,
    p95Ms,
  };
}

const TYPE_NAMES = new Set<string>(ASSET_TYPES);
const TOOL_NAME = /^[a-z][a-z0-9_]{0,39}$/;

export interface UsageOptions extends MetricsOptions {
  now?: () => Date;
}

/** Samples of one metric: a prom-client `get()`'s values, or a Prometheus answer (server/stats/prometheus.ts). */
type Values = readonly { value: number; labels: Partial<Record<string, string | number>> }[];
/** The sum of the finite values (a Prometheus answer may hold NaN). */
export const sum = (values: Values): number => values.reduce((a, v) => a + (Number.isFinite(v.value) ? v.value : 0), 0);
/** Sums by one label, leaving out values without it or not finite. */
export function byLabel(values: Values, label: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const { labels, value } of values) {
    const key = labels[label];
    if (key !== undefined && Number.isFinite(value)) out.set(String(key), (out.get(String(key)) ?? 0) + value);
  }
  return out;
}

export function createUsage(options: UsageOptions = {}): Usage {
  const now = options.now ?? (() => new Date());
  const metrics = new Metrics(options);
  const startedAt = now();
  // Tool names minted as labels so far (with `other`): the cap of toolCall.
  const toolNames = new Set<string>();
  // The raw latencies behind p50/p95 (the histogram keeps only buckets, which would change the
  // numbers); a source has a ring once a search reached it, in that order.
  const latencies = new Map<string, LatencyRing>();

  return {
    startedAt,
    now,
    metrics,

    search({ surface, types, hadResults, client }) {
      const s: Surface = SURFACES.includes(surface) ? surface : "api";
      const names = types.length ? [...new Set(types.map((t) => (TYPE_NAMES.has(t) ? t : "other")))] : ["any"];
      for (const name of names) metrics.searchTypes.inc({ type: name });
      metrics.searches.inc({ surface: s, client: asClientFamily(client), results: hadResults ? "yes" : "no" });
    },

    assetView() {
      metrics.assetViews.inc();
    },

    download() {
      metrics.downloads.inc();
    },

    preview() {
      metrics.previews.inc();
    },

    toolCall(name) {
      const tool = TOOL_NAME.test(name) && (toolNames.has(name) || toolNames.size < MAX_TOOLS) ? name : "other";
      toolNames.add(tool);
      metrics.toolCalls.inc({ tool });
    },

    pageView() {
      metrics.pageViews.inc();
    },

    sourceResult(report) {
      const outcome: SourceOutcome | undefined =
        report.status === "ok" ? "ok" : report.status === "error" ? "error" : report.status === "timeout" ? "timeout" : undefined;
      if (!outcome) return; // skipped (breaker open, no key …) and link never reached the source
      let ring = latencies.get(report.provider);
      if (!ring) {
        ring = new LatencyRing();
        latencies.set(report.provider, ring);
      }
      const ms = Math.max(0, report.tookMs);
      ring.add(ms);
      metrics.initSource(report.provider);
      metrics.sourceRequests.inc({ source: report.provider, outcome });
      metrics.sourceLatency.observe({ source: report.provider }, ms / 1000);
    },

    async snapshot() {
      const searches = (await metrics.searches.get()).values;
      const tools = (await metrics.toolCalls.get()).values;
      const requests = (await metrics.sourceRequests.get()).values;
      const surfaces = byLabel(searches, "surface");
      return {
        since: startedAt.toISOString(),
        window: {
          key: "process",
          label: "Since the last restart",
          searches: sum(searches),
          searchesWithResults: sum(searches.filter((v) => v.labels.results === "yes")),
          assetViews: sum((await metrics.assetViews.get()).values),
          downloads: sum((await metrics.downloads.get()).values),
          previews: sum((await metrics.previews.get()).values),
          toolCalls: sum(tools),
          pageViews: sum((await metrics.pageViews.get()).values),
          bySurface: { web: surfaces.get("web") ?? 0, api: surfaces.get("api") ?? 0, mcp: surfaces.get("mcp") ?? 0 },
        },
        clients: ranked(byLabel(searches, "client")),
        tools: ranked(byLabel(tools, "tool")),
        assetTypes: ranked(byLabel((await metrics.searchTypes.get()).values, "type")),
        providers: [...latencies].map(([id, ring]) => {
          const of = (outcome: SourceOutcome) => sum(requests.filter((v) => v.labels.source === id && v.labels.outcome === outcome));
          const [ok, errors, timeouts] = [of("ok"), of("error"), of("timeout")];
          const [p50, p95] = ring.quantiles(0.5, 0.95);
          return health(id, { requests: ok + errors + timeouts, ok, errors, timeouts }, p50 ?? null, p95 ?? null);
        }),
      };
    },
  };
}
