import type { Server as HttpServer } from "node:http";
import { type H3, serve } from "h3";
import { BreakerRegistry } from "../core/circuit-breaker.ts";
import { type Config, loadConfig } from "../core/config.ts";
import { loadPublished } from "../core/published.ts";
import { createRuntime } from "../core/runtime.ts";
import { SOURCES } from "../sources/index.ts";
import { createApp } from "./app.ts";
import { onClientError, onUnsupportedExpectation, requestTimeouts } from "./client-error.ts";
import type { AppDeps } from "./context.ts";
import { createRedisLimiter } from "./middleware/rate-limit.ts";
import { exitOnSignal, gracefulShutdown, type Shutdown } from "./shutdown.ts";
import { type MetricsServer, startMetricsServer } from "./stats/metrics.ts";
import { createUsage } from "./stats/usage.ts";

/**
 * What the server, `asset-search mcp` and `asset-search search` share: the config, one runtime
 * (answered from ASSET_SERVER_REPLAY's recordings when set), every source and the published `data/`.
 */
export function createDeps(config: Config = loadConfig()): AppDeps {
  const runtime = createRuntime(config);
  const published = loadPublished(config.dataDir);
  const usage = createUsage({
    sources: SOURCES.filter((s) => s.mode === "live").map((s) => s.id),
    downloadSources: SOURCES.filter((s) => s.supportsDownload).map((s) => s.id),
    defaultMetrics: true,
  });
  return { runtime, sources: SOURCES, published, breakers: new BreakerRegistry(), usage };
}

/** One line about what was loaded, for stderr. */
export function describeDeps(deps: AppDeps): string {
  const { config } = deps.runtime;
  return (
    `${deps.published.index.assets.length} indexed assets, ${deps.sources.length} sources` +
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
  const deps: AppDeps = { ...createDeps(config), ...(redis ? { rateLimiter: redis.limiter } : {}) };
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
      await Promise.all([metrics?.close(), redis?.close()]);
    },
  });
  await Promise.all([server.ready(), redis?.connected]);
  if (config.metricsPort !== undefined) {
    // Prometheus /metrics on its own port only, never on the public app.
    metrics = await startMetricsServer(deps.usage.metrics, { port: config.metricsPort, host: config.host });
    console.error(`metrics on http://${config.host}:${metrics.port}/metrics`);
  }
  if (options.signals ?? true) exitOnSignal(shutdown);
  console.error(`asset-search listening on http://${config.host}:${config.port} — ${describeDeps(deps)}`);
  return { app, server, deps, shutdown };
}
