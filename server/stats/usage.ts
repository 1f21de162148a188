/**
 * Usage counting: aggregate counts only, counted in this process and mirrored into the
 * Prometheus metrics. Nothing here can hold a query, an address or a user agent: the inputs are
 * a surface, asset types, a yes/no, a client family, a tool name and per-source reports, and every
 * one of them is kept within a fixed or capped set of names.
 *
 * Who calls what:
 * - GET /v1/search → `search({ surface: "web" | "api", … })` (server/stats/hooks.ts)
 * - MCP `search_assets` → `search({ surface: "mcp", … })`; every MCP tool → `toolCall(name)`
 * - GET /v1/assets/{id} → `assetView()`; GET /v1/assets/{id}/download (302 or zip) → `download()`
 * - GET / → `pageView()`
 * - every live source asked by a search (core/search.ts `onSourceResult`) → `sourceResult(report)`
 */
import { ASSET_TYPES, type ProviderHealth, type ProviderReport, type Ranked, type UsageWindow } from "../../core/schemas/index.ts";
import { asClientFamily, type ClientFamily } from "./client-family.ts";
import { MAX_TOOLS, Metrics, SURFACES, type MetricsOptions, type SourceOutcome, type Surface } from "./metrics.ts";

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
  /** The Prometheus metrics this counting feeds (served by startMetricsServer). */
  readonly metrics: Metrics;
  search(count: SearchCount): void;
  assetView(): void;
  download(): void;
  /** One MCP tool call; names outside the known tools are kept up to a cap, then `other`. */
  toolCall(name: string): void;
  pageView(): void;
  /** One source's line of a search; only `ok`, `error` and `timeout` reached the source and count. */
  sourceResult(report: ProviderReport): void;
  snapshot(): ProcessSnapshot;
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

interface SourceHealth {
  requests: number;
  ok: number;
  errors: number;
  timeouts: number;
  latency: LatencyRing;
}

/** Ranked by count (highest first), then name; zero counts left out. */
export function ranked(counts: Iterable<[string, number]>): Ranked[] {
  return [...counts]
    .filter(([, count]) => count > 0)
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

/** okRate is null when nothing was asked (the contract). */
export function health(provider: string, h: Omit<SourceHealth, "latency">, p50Ms: number | null, p95Ms: number | null): ProviderHealth {
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
  /** An existing Metrics (else one is created with `sources` and `defaultMetrics`). */
  metrics?: Metrics;
}

export function createUsage(options: UsageOptions = {}): Usage {
  const now = options.now ?? (() => new Date());
  const metrics = options.metrics ?? new Metrics(options);
  const startedAt = now();
  const totals = { searches: 0, searchesWithResults: 0, assetViews: 0, downloads: 0, toolCalls: 0, pageViews: 0 };
  const bySurface: Record<Surface, number> = { web: 0, api: 0, mcp: 0 };
  const clients = new Map<string, number>();
  const tools = new Map<string, number>();
  const assetTypes = new Map<string, number>();
  const sources = new Map<string, SourceHealth>();
  const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

  return {
    startedAt,
    now,
    metrics,

    search({ surface, types, hadResults, client }) {
      const s: Surface = SURFACES.includes(surface) ? surface : "api";
      const family = asClientFamily(client);
      totals.searches++;
      if (hadResults) totals.searchesWithResults++;
      bySurface[s]++;
      bump(clients, family);
      const names = types.length ? [...new Set(types.map((t) => (TYPE_NAMES.has(t) ? t : "other")))] : ["any"];
      for (const name of names) {
        bump(assetTypes, name);
        metrics.searchTypes.inc({ type: name });
      }
      metrics.searches.inc({ surface: s, client: family, results: hadResults ? "yes" : "no" });
    },

    assetView() {
      totals.assetViews++;
      metrics.assetViews.inc();
    },

    download() {
      totals.downloads++;
      metrics.downloads.inc();
    },

    toolCall(name) {
      const tool = TOOL_NAME.test(name) && (tools.has(name) || tools.size < MAX_TOOLS) ? name : "other";
      totals.toolCalls++;
      bump(tools, tool);
      metrics.toolCalls.inc({ tool });
    },

    pageView() {
      totals.pageViews++;
      metrics.pageViews.inc();
    },

    sourceResult(report) {
      const outcome: SourceOutcome | undefined =
        report.status === "ok" ? "ok" : report.status === "error" ? "error" : report.status === "timeout" ? "timeout" : undefined;
      if (!outcome) return; // skipped (breaker open, no key …) and link never reached the source
      let h = sources.get(report.provider);
      if (!h) sources.set(report.provider, (h = { requests: 0, ok: 0, errors: 0, timeouts: 0, latency: new LatencyRing() }));
      h.requests++;
      if (outcome === "ok") h.ok++;
      else if (outcome === "error") h.errors++;
      else h.timeouts++;
      const ms = Math.max(0, report.tookMs);
      h.latency.add(ms);
      metrics.initSource(report.provider);
      metrics.sourceRequests.inc({ source: report.provider, outcome });
      metrics.sourceLatency.observe({ source: report.provider }, ms / 1000);
    },

    snapshot() {
      return {
        since: startedAt.toISOString(),
        window: { key: "process", label: "Since the last restart", ...totals, bySurface: { ...bySurface } },
        clients: ranked(clients),
        tools: ranked(tools),
        assetTypes: ranked(assetTypes),
        providers: [...sources].map(([id, h]) => {
          const [p50, p95] = h.latency.quantiles(0.5, 0.95);
          return health(id, h, p50 ?? null, p95 ?? null);
        }),
      };
    },
  };
}
