/**
 * Metrics mode of `/v1/stats`: the `24h` and `7d` windows, the breakdowns and the
 * per-source health read from Prometheus's HTTP API (`/api/v1/query`), over the counters of
 * server/stats/metrics.ts as scraped from every replica (summed).
 *
 * Exact counts: `increase()` extrapolates to the edges of its range. Every series starts at 0
 * (metrics.ts creates them up front), which stops the extrapolation at the start; and the queries
 * are evaluated at the time of the newest scrape, which stops it at the end. So a window counts
 * what was scraped, as whole numbers (rounded; a replica scraped at another moment may add a
 * fraction). What happened since the last scrape shows at the next one.
 */
import { request } from "undici";
import { z } from "zod";
import type { ProviderHealth, Ranked, UsageWindow } from "../../core/schemas/index.ts";
import { METRIC, type SourceOutcome } from "./metrics.ts";
import { byLabel, health, ranked, sum } from "./usage.ts";

export interface MetricsStats {
  windows: UsageWindow[];
  breakdownLabel: string;
  clients: Ranked[];
  tools: Ranked[];
  assetTypes: Ranked[];
  providers: ProviderHealth[];
}

/** Why Prometheus could not be used; the message is safe to show (no address, no raw error). */
export class PrometheusUnavailable extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = "PrometheusUnavailable";
  }
}

const QueryAnswer = z.object({
  status: z.literal("success"),
  data: z.object({
    resultType: z.literal("vector"),
    result: z.array(z.object({ metric: z.record(z.string(), z.string()), value: z.tuple([z.number(), z.string()]) })),
  }),
});
type Sample = { labels: Record<string, string>; value: number };

export interface PrometheusOptions {
  /** Per query, connect to body (default 4 s): /v1/stats must answer even when Prometheus hangs. */
  timeoutMs?: number;
}

/** One instant query; every failure becomes a PrometheusUnavailable. */
async function query(baseUrl: string, promql: string, time: string | undefined, timeoutMs: number): Promise<Sample[]> {
  const params = new URLSearchParams({ query: promql, ...(time ? { time } : {}) });
  let text: string;
  let status: number;
  try {
    // Not the project's HTTP client on purpose: that client refuses loopback and private addresses
    // (the SSRF guard for upstream sites), while Prometheus is infrastructure the operator
    // configured (PROMETHEUS_URL), usually on loopback or a private network. This one trusted URL
    // is asked directly, with its own short timeouts; nothing from a request ever reaches it.
    const res = await request(`${baseUrl}/api/v1/query?${params}`, {
      method: "GET",
      headers: { accept: "application/json" },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = res.statusCode;
    text = await res.body.text();
  } catch (err) {
    const timedOut = err instanceof Error && /timeout|abort/i.test(`${err.name} ${err.message}`);
    throw new PrometheusUnavailable(timedOut ? "Prometheus did not answer in time" : "Prometheus could not be reached", err);
  }
  if (status !== 200) throw new PrometheusUnavailable(`Prometheus answered HTTP ${status}`, text.slice(0, 300));
  let parsed: z.infer<typeof QueryAnswer>;
  try {
    parsed = QueryAnswer.parse(JSON.parse(text));
  } catch (err) {
    throw new PrometheusUnavailable("Prometheus gave an unexpected answer", err);
  }
  return parsed.data.result.map((r) => ({ labels: r.metric, value: Number(r.value[1]) }));
}

/** A float count from increase() as a whole, non-negative number. */
const whole = (v: number): number => (Number.isFinite(v) && v > 0 ? Math.round(v) : 0);
const sumOf = (samples: Sample[]): number => whole(sum(samples));
const wholeBy = (samples: Sample[], label: string): [string, number][] => [...byLabel(samples, label)].map(([k, v]) => [k, whole(v)]);

const WINDOWS = [
  { key: "24h", label: "Last 24 hours", range: "24h" },
  { key: "7d", label: "Last 7 days", range: "7d" },
] as const;

/**
 * Reads the statistics from Prometheus at `baseUrl`. Throws PrometheusUnavailable when it cannot
 * be reached, answers badly, or holds no series of this service (not scraping METRICS_PORT).
 */
export async function readPrometheus(baseUrl: string, options: PrometheusOptions = {}): Promise<MetricsStats> {
  const timeoutMs = options.timeoutMs ?? 4000;
  const q = (promql: string, time?: string) => query(baseUrl, promql, time, timeoutMs);

  // The newest scrape of this service: every query below is evaluated at that instant.
  const newest = await q(`max(timestamp(${METRIC.pageViews}))`);
  const at = newest[0]?.value;
  if (at === undefined || !Number.isFinite(at)) {
    throw new PrometheusUnavailable("Prometheus has no data from this service yet (is it scraping METRICS_PORT?)");
  }
  const time = String(at);
  const inc = (metric: string, range: string, by?: string) => q(`sum${by ? ` by (${by})` : ""} (increase(${metric}[${range}]))`, time);

  const windowQueries = WINDOWS.map(async (w) => {
    const [searches, views, downloads, previews, pages, tools] = await Promise.all([
      inc(METRIC.searches, w.range, "surface, results"),
      inc(METRIC.assetViews, w.range),
      inc(METRIC.downloads, w.range),
      inc(METRIC.previews, w.range),
      inc(METRIC.pageViews, w.range),
      inc(METRIC.toolCalls, w.range, "tool"),
    ]);
    const surfaces = Object.fromEntries(wholeBy(searches, "surface"));
    const window: UsageWindow = {
      key: w.key,
      label: w.label,
      searches: sumOf(searches),
      searchesWithResults: sumOf(searches.filter((s) => s.labels.results === "yes")),
      bySurface: { web: surfaces.web ?? 0, api: surfaces.api ?? 0, mcp: surfaces.mcp ?? 0 },
      assetViews: sumOf(views),
      downloads: sumOf(downloads),
      previews: sumOf(previews),
      toolCalls: sumOf(tools),
      pageViews: sumOf(pages),
    };
    return { window, tools };
  });
  const quantile = (qv: number) => q(`histogram_quantile(${qv}, sum by (source, le) (increase(${METRIC.sourceLatency}_bucket[24h])))`, time);

  const [day, week, clients, types, requests, p50, p95] = await Promise.all([
    windowQueries[0]!,
    windowQueries[1]!,
    inc(METRIC.searches, "7d", "client"),
    inc(METRIC.searchTypes, "7d", "type"),
    inc(METRIC.sourceRequests, "24h", "source, outcome"),
    quantile(0.5),
    quantile(0.95),
  ]);

  const ms = (samples: Sample[], id: string): number | null => {
    const v = samples.find((s) => s.labels.source === id)?.value;
    return v === undefined || !Number.isFinite(v) ? null : Math.max(0, Math.round(v * 1000));
  };
  const providers = [...new Set(requests.flatMap((s) => s.labels.source || []))].map((id) => {
    const of = (outcome: SourceOutcome) => sumOf(requests.filter((s) => s.labels.source === id && s.labels.outcome === outcome));
    const counts = { ok: of("ok"), errors: of("error"), timeouts: of("timeout") };
    const total = counts.ok + counts.errors + counts.timeouts;
    // No request in the window: no latency either (histogram_quantile gives NaN then anyway).
    return health(id, { requests: total, ...counts }, total ? ms(p50, id) : null, total ? ms(p95, id) : null);
  });

  return {
    windows: [day.window, week.window],
    breakdownLabel: "Last 7 days",
    clients: ranked(wholeBy(clients, "client")),
    tools: ranked(wholeBy(week.tools, "tool")),
    assetTypes: ranked(wholeBy(types, "type")),
    providers,
  };
}
