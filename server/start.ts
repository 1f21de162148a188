import type { Server as HttpServer } from "node:http";
import { type H3, serve } from "h3";
import { BreakerRegistry } from "../core/circuit-breaker.ts";
import { type Config, loadConfig } from "../core/config.ts";
import { currentSet, loadPublished } from "../core/published.ts";
import { createRuntime } from "../core/runtime.ts";
import { SOURCES } from "../sources/index.ts";
import { createApp } from "./app.ts";
import { onClientError, onUnsupportedExpectation, requestTimeouts } from "./client-error.ts";
import type { AppDeps } from "./context.ts";
import { dirSource, watchDir } from "./data/dir-source.ts";
import { followData } from "./data/follow.ts";
import { urlSource } from "./data/url-source.ts";
import { createRedisLimiter } from "./middleware/rate-limit.ts";
import { exitOnSignal, gracefulShutdown, type Shutdown } from "./shutdown.ts";
import { type MetricsServer, startMetricsServer } from "./stats/metrics.ts";
import { createUsage } from "./stats/usage.ts";

/**
 * What the server, `asset-search mcp` and `asset-search search` share: the config, one runtime
 * (answered from ASSET_SERVER_REPLAY's recordings when set), every source and the published `data/`,
 * with what follows its publication (DATA_URL or DATA_DIR; started by startServer only).
 */
export function createDeps(config: Config = loadConfig()): AppDeps {
  const runtime = createRuntime(config);
  // The pointer is read before the set, so that a switch between the two reads is seen by the next check.
  const set = currentSet(config.dataDir);
  const published = loadPublished(config.dataDir);
  const usage = createUsage({
    sources: SOURCES.filter((s) => s.mode === "live").map((s) => s.id),
    downloadSources: SOURCES.filter((s) => s.supportsDownload).map((s) => s.id),
    defaultMetrics: true,
  });
  const { dataDir, dataUrl } = config;
  const data = followData({
    published,
    origin: { source: "dir", ...(set ? { set } : {}) },
    source: dataUrl ? urlSource(dataUrl, config) : dirSource(dataDir, set),
    ...(dataUrl ? { url: dataUrl } : { watch: (onChange: () => void) => watchDir(dataDir, onChange) }),
    pollSeconds: config.dataPollSeconds,
    now: runtime.now,
    metrics: usage.metrics,
  });
  return { runtime, sources: SOURCES, published, data, breakers: new BreakerRegistry(), usage };
}

/** One line about what was loaded, for stderr. */
export function describeDeps(deps: AppDeps): string {
  const { config } = deps.runtime;
  return (
    `${deps.published.index.documentCount} indexed assets${deps.data?.status().source === "url" ? ` from ${config.dataUrl}` : ""}, ${deps.sources.length} sources` +
    `${config.replayDir ? `, replaying ${config.replayDir} (offline)` : ""}`
  );
}

/**
 * Starts the HTTP server (`npm start`, `asset-search serve`); logs to stderr. With REDIS_URL the
 * rate limit is kept in Redis, whose connection closes when the server does. With `signals` (the
 * default), SIGTERM/SIGINT run `shutdown` and exit 0: requests in flight get SHUTDOWN_GRACE_MS.
 */
export async function startServer(
  config: Config = loadConfig(),
  options: { signals?: boolean } = {},
): Promise<{ app: H3; server: ReturnType<typeof serve>; deps: AppDeps; shutdown: Shutdown }> {
  const redis = config.redisUrl && config.rateLimitPerMinute > 0 ? createRedisLimiter(config.redisUrl, config.rateLimitPerMinute) : undefined;
  const deps: AppDeps = { ...createDeps(config), ...(redis ? { rateLimiters: redis.limiters } : {}) };
  // DATA_URL's publication before the first request; when it cannot be had, DATA_DIR's data serves until a check succeeds.
  if (config.dataUrl) await deps.data?.checkNow();
  const app = createApp(deps);
  // srvx's own signal handling is off: it cuts requests after a fixed 5 s and ignores the metrics listener.
  // A request without Host reaches the app, which answers it in JSON (server/middleware/host.ts).
  const nodeOptions = { ...requestTimeouts(config), requireHostHeader: false };
  const server = serve(app, { port: config.port, hostname: config.host, silent: true, gracefulShutdown: false, node: nodeOptions });
  const node = server.node!.server as HttpServer;
  node.on("clientError", onClientError(config));
  node.on("checkExpectation", onUnsupportedExpectation);
  if (redis) node.once("close", () => void redis.close());
  let metrics: MetricsServer | undefined;
  const shutdown = gracefulShutdown(node, {
    graceMs: config.shutdownGraceMs,
    afterwards: async () => {
      await Promise.all([metrics?.close(), redis?.close(), deps.data?.stop()]);
    },
  });
  await Promise.all([server.ready(), redis?.connected]);
  if (config.metricsPort !== undefined) {
    // Prometheus /metrics on its own port only, never on the public app.
    metrics = await startMetricsServer(deps.usage.metrics, { port: config.metricsPort, host: config.host });
    console.error(`metrics on http://${config.host}:${metrics.port}/metrics`);
  }
  deps.data?.start();
  if (options.signals ?? true) exitOnSignal(shutdown);
  console.error(`asset-search listening on http://${config.host}:${config.port} — ${describeDeps(deps)}`);
  return { app, server, deps, shutdown };
}
