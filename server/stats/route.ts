/**
 * `GET /v1/stats`: the Stats shape of core/schemas/stats.ts, cached in
 * memory for 60 seconds with a matching `Cache-Control`.
 *
 * - Process mode (default): `source: "process"`, `since` = the start, one window `process`.
 * - Metrics mode (PROMETHEUS_URL set): `source: "metrics"`, windows `24h` and `7d` from Prometheus.
 *   When Prometheus cannot be read, the process counts are served instead, with `note` saying so.
 *
 * Per-source health lists every live source of the registry (the only ones a search reaches:
 * indexed sources answer from the local index, link sources are never fetched), plus any other
 * source that has been reached.
 */
import type { H3Event } from "h3";
import type { Source } from "../../core/model/source.ts";
import type { ProviderHealth, Stats } from "../../core/schemas/index.ts";
import type { AppDeps } from "../context.ts";
import { noLog } from "../log.ts";
import { jsonResponse, rateLimitedResponses } from "../openapi.ts";
import { PrometheusUnavailable, readPrometheus } from "./prometheus.ts";
import { health } from "./usage.ts";

export const STATS_TTL_MS = 60_000;

/** The registry side of the stats: how many sources, with direct downloads, by access and pricing. */
export function catalogOf(sources: readonly Source[]): Stats["catalog"] {
  const tally = (key: (s: Source) => string) => {
    const out: Record<string, number> = {};
    for (const s of sources) out[key(s)] = (out[key(s)] ?? 0) + 1;
    return out;
  };
  return {
    sources: sources.length,
    directDownload: sources.filter((s) => s.supportsDownload).length,
    byAccess: tally((s) => s.access),
    byPricing: tally((s) => s.pricing),
  };
}

/** Every live source of the registry (zeros when not reached yet), then any other reached source. */
function providerHealth(sources: readonly Source[], reached: ProviderHealth[]): ProviderHealth[] {
  const byId = new Map(reached.map((h) => [h.provider, h]));
  const live = sources.filter((s) => s.mode === "live").map((s) => byId.get(s.id) ?? health(s.id, { requests: 0, ok: 0, errors: 0, timeouts: 0 }, null, null));
  const listed = new Set(live.map((h) => h.provider));
  return [...live, ...reached.filter((h) => !listed.has(h.provider))];
}

/** The stats of this process since it started; `note` when metrics mode failed. */
async function processStats(deps: AppDeps, generatedAt: Date, note?: string): Promise<Stats> {
  const snap = await deps.usage.snapshot();
  return {
    generatedAt: generatedAt.toISOString(),
    source: "process",
    since: snap.since,
    windows: [snap.window],
    breakdownLabel: "Since the last restart",
    clients: snap.clients,
    tools: snap.tools,
    assetTypes: snap.assetTypes,
    providers: providerHealth(deps.sources, snap.providers),
    catalog: catalogOf(deps.sources),
    ...(note ? { note } : {}),
  };
}

async function computeStats(deps: AppDeps, generatedAt: Date): Promise<Stats> {
  const url = deps.runtime.config.prometheusUrl;
  if (!url) return processStats(deps, generatedAt);
  try {
    const m = await readPrometheus(url);
    return {
      generatedAt: generatedAt.toISOString(),
      source: "metrics",
      windows: m.windows,
      breakdownLabel: m.breakdownLabel,
      clients: m.clients,
      tools: m.tools,
      assetTypes: m.assetTypes,
      providers: providerHealth(deps.sources, m.providers),
      catalog: catalogOf(deps.sources),
    };
  } catch (err) {
    // The operator sees the cause in the log; the public note never names the address or the raw error.
    const why = err instanceof PrometheusUnavailable ? err.message : "reading Prometheus failed";
    const cause = err instanceof PrometheusUnavailable ? err.cause : err;
    const detail = cause instanceof Error ? `${cause.name}: ${cause.message}` : cause ? String(cause) : "";
    (deps.log ?? noLog).warn({ event: "stats_fallback", ...(detail ? { error: detail } : {}) }, `stats: ${why}; serving this process's counts`);
    return processStats(deps, generatedAt, `${why}: these are this process's counts since it started, not the metrics system's.`);
  }
}

/**
 * The GET /v1/stats handler with its own 60 s cache (one per app). Concurrent requests during a
 * refresh share one computation; the clock is `deps.usage.now` (injectable in tests).
 */
export function createStatsRoute(deps: AppDeps): (event: H3Event) => Promise<Stats> {
  let cached: { at: number; body: Promise<Stats> } | undefined;
  return async (event) => {
    const now = deps.usage.now();
    const t = now.getTime();
    if (!cached || t - cached.at >= STATS_TTL_MS || t < cached.at) {
      const body = computeStats(deps, now);
      cached = { at: t, body };
      body.catch(() => {
        if (cached?.body === body) cached = undefined; // never keep a failure for a minute
      });
    }
    const entry = cached;
    const body = await entry.body;
    const left = Math.max(1, Math.ceil((entry.at + STATS_TTL_MS - t) / 1000));
    event.res.headers.set("cache-control", `public, max-age=${left}`);
    return body;
  };
}

/** The OpenAPI path item of GET /v1/stats (for buildOpenApi's extraPaths); tagged System. */
export function statsOpenApiPaths(): Record<string, unknown> {
  return {
    "/v1/stats": {
      get: {
        operationId: "getStats",
        tags: ["System"],
        summary: "Aggregate usage statistics and source health",
        description:
          "Counts only: searches (by surface web, api, mcp), asset views, downloads, previews (files served by `/raw/`), MCP tool calls and page views; rankings of client " +
          "families, MCP tools and asset-type filters; per-source health (requests that reached a live source, outcomes, p50/p95 " +
          "latency). `source` is `process` (counted in this process since `since`, window `process`) or `metrics` (windows `24h` " +
          "and `7d` from Prometheus, when the server sets PROMETHEUS_URL; when it cannot be read, the process counts are served and " +
          "`note` says so). No query text, IP address or user agent is ever recorded. Cached for 60 seconds.",
        responses: rateLimitedResponses({
          200: {
            ...jsonResponse("The statistics", "Stats"),
            headers: {
              "Cache-Control": {
                description: "`public, max-age=<seconds>`: the seconds left of the 60-second cache",
                schema: { type: "string" },
              },
            },
          },
        }),
      },
    },
  };
}
