import { existsSync, statSync } from "node:fs";
import type { Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type H3, serve } from "h3";
import { type Config, ConfigError, loadConfig } from "../core/config.ts";
import { createRuntime } from "../core/model/runtime.ts";
import { currentSet, hasPublication, loadPublished, type Published } from "../core/publication/published.ts";
import { BREAKER_COOLDOWN_MS, BREAKER_THRESHOLD, BreakerRegistry } from "../core/search/circuit-breaker.ts";
import { SOURCES } from "../sources/index.ts";
import { createApp } from "./app.ts";
import { onClientError, onUnsupportedExpectation, requestTimeouts } from "./client-error.ts";
import type { AppDeps } from "./context.ts";
import { dirSource, watchDir } from "./data/dir-source.ts";
import { followData } from "./data/follow.ts";
import { urlSource } from "./data/url-source.ts";
import { createLogger, type Logger } from "./log.ts";
import { createRedisLimiter } from "./middleware/rate-limit.ts";
import { CountedResponse } from "./middleware/request-log.ts";
import { connectShared, type SharedState } from "./shared/redis.ts";
import { exitOnSignal, gracefulShutdown, type Shutdown } from "./shutdown.ts";
import { type MetricsServer, startMetricsServer } from "./stats/metrics.ts";
import { createUsage } from "./stats/usage.ts";

/**
 * What the server, `asset-search mcp` and `asset-search search` share: the config, one runtime
 * (answered from ASSET_SERVER_REPLAY's recordings when set), every source and the published `data/`,
 * with what follows its publication (DATA_URL or DATA_DIR; started by startServer only), and the
 * logger (server/log.ts, at LOG_LEVEL on stderr unless given); with `shared` (startServer's, with
 * REDIS_URL), the upstream cache and the breakers' state the replicas share.
 */
export function createDeps(
  config: Config = loadConfig(),
  log: Logger = createLogger(config.logLevel),
  shared?: Pick<SharedState, "cache" | "breakers">,
): AppDeps {
  if (config.replayDir && !statSync(config.replayDir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new ConfigError(
      `ASSET_SERVER_REPLAY=${config.replayDir} is not a folder: set it to a folder of recordings (the project's are in test/fixtures), or unset it to ask the real sites`,
    );
  }
  const runtime = createRuntime(config, { sharedCache: shared?.cache });
  // The pointer is read before the set, so that a switch between the two reads is seen by the next check.
  const set = currentSet(config.dataDir);
  const published = readPublished(config.dataDir);
  const usage = createUsage({
    sources: SOURCES.filter((s) => s.mode === "live").map((s) => s.id),
    downloadSources: SOURCES.filter((s) => s.supportsDownload).map((s) => s.id),
    defaultMetrics: true,
  });
  const { dataDir, dataUrl } = config;
  const data = followData({
    published,
    origin: { source: "dir", ...(set ? { set } : {}) },
    loaded: hasPublication(dataDir),
    source: dataUrl ? urlSource(dataUrl, config) : dirSource(dataDir, set),
    ...(dataUrl ? { url: dataUrl } : { watch: (onChange: () => void) => watchDir(dataDir, onChange, log) }),
    pollSeconds: config.dataPollSeconds,
    now: runtime.now,
    metrics: usage.metrics,
    log,
  });
  const breakers = new BreakerRegistry(BREAKER_THRESHOLD, BREAKER_COOLDOWN_MS, Date.now, {
    shared: shared?.breakers,
    onChange: (source, state) =>
      log.warn(
        { event: `breaker_${state}`, source },
        `breaker of ${source} ${state === "open" ? "opened: the source is skipped while it cools down" : "closed"}`,
      ),
  });
  return { runtime, sources: SOURCES, published, data, breakers, usage, log };
}

/** DATA_DIR's set, or the error that says which folder failed and what to do. */
function readPublished(dataDir: string): Published {
  try {
    return loadPublished(dataDir);
  } catch (err) {
    throw new ConfigError(
      `DATA_DIR=${dataDir}: its published set could not be read (${(err as Error).message}): rebuild it with \`npm run pipeline\`, or set DATA_DIR to another`,
    );
  }
}

/** Why the server will not start on DATA_DIR alone, and the ways out. */
function noDataError(dataDir: string): ConfigError {
  const what = existsSync(dataDir) ? "holds no published set (no current.json, catalog.json or index.json.gz)" : "does not exist";
  return new ConfigError(
    `DATA_DIR=${dataDir} ${what}: build a set there with \`npm run pipeline\`, set DATA_DIR to a folder that holds one, or set DATA_URL to a publication to start empty and follow it`,
  );
}

/** A listen error as the configuration it comes from: which variable, which value, and the fix. */
function listenError(err: unknown, name: string, port: number, host: string): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE")
    return new ConfigError(`${name}=${port}: the port is already in use on ${host}: stop what listens there, or set ${name} to a free port`);
  if (code === "EACCES")
    return new ConfigError(`${name}=${port}: not allowed to listen on this port here (below 1024 needs privileges): set ${name} to 1024 or above`);
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") {
    return new ConfigError(
      `HOST=${host}: not an address of this machine: set HOST to one of its addresses, 0.0.0.0 for all or 127.0.0.1 for this machine only`,
    );
  }
  return err;
}

/** One line about what was loaded, for stderr. */
export function describeDeps(deps: AppDeps): string {
  const { config } = deps.runtime;
  return (
    `${deps.published.index.documentCount} indexed assets${deps.data?.status().source === "url" ? ` from ${config.dataUrl}` : ""}, ${deps.sources.length} sources` +
    `${config.replayDir ? `, replaying ${config.replayDir} (offline)` : ""}`
  );
}

/** The start line's fields: where the server listens, and the data set it serves (as a data swap names it, server/data/follow.ts). */
function startFields(deps: AppDeps, port: number): Record<string, unknown> {
  const { host } = deps.runtime.config;
  const { index } = deps.published;
  const data = deps.data?.status();
  return {
    event: "start",
    host,
    port,
    ...(data?.set ? { set: data.set } : {}),
    ...(data?.url ? { url: data.url } : {}),
    assets: index.documentCount,
    builtAt: index.builtAt,
    sources: deps.sources.length,
  };
}

/**
 * Starts the HTTP server (`npm start`, `asset-search serve`); logs to stderr (server/log.ts), or to
 * `log` when given (tests). With REDIS_URL the rate limit, the upstream cache and the breakers'
 * state are kept in Redis, whose connections close when the server does. With `signals` (the
 * default), SIGTERM/SIGINT run `shutdown` and exit 0: requests in flight get SHUTDOWN_GRACE_MS.
 */
export async function startServer(
  config: Config = loadConfig(),
  options: { signals?: boolean; log?: Logger } = {},
): Promise<{ app: H3; server: ReturnType<typeof serve>; deps: AppDeps; shutdown: Shutdown }> {
  // Without DATA_URL nothing would ever fill an empty DATA_DIR's place: refused before anything opens.
  if (!config.dataUrl && !hasPublication(config.dataDir)) throw noDataError(config.dataDir);
  const log = options.log ?? createLogger(config.logLevel);
  const redis = config.redisUrl && config.rateLimitPerMinute > 0 ? createRedisLimiter(config.redisUrl, config.rateLimitPerMinute, log) : undefined;
  const shared = config.redisUrl ? connectShared(config, log) : undefined;
  const closeRedis = () => Promise.all([redis?.close(), shared?.close()]);
  let draining = false;
  const deps: AppDeps = {
    ...createDeps(config, log, shared),
    ...(redis ? { rateLimiters: redis.limiters } : {}),
    // Up when every connection to it is: the shared state's, and the rate limit's when there is one.
    lifecycle: { draining: () => draining, redis: () => shared && (shared.state() === "up" && redis?.state() !== "down" ? "up" : "down") },
  };
  // DATA_URL's publication before the first request; when it cannot be had, DATA_DIR's data serves until a check succeeds.
  if (config.dataUrl) await deps.data?.checkNow();
  if (deps.data && !deps.data.loaded()) {
    const why = `DATA_DIR=${config.dataDir} holds no published set and DATA_URL=${config.dataUrl} could not be read (${deps.data.status().lastError?.message})`;
    if (config.dataPollSeconds === 0) {
      await Promise.all([closeRedis(), deps.data.stop()]);
      throw new ConfigError(`${why}, and DATA_POLL_SECONDS=0 never asks again: fix DATA_URL, or set DATA_POLL_SECONDS to check again`);
    }
    log.warn({ event: "data_empty" }, `data: ${why}; starting empty: /ready answers 503 until it is loaded`);
  }
  const app = createApp(deps);
  // srvx's own signal handling is off: it cuts requests after a fixed 5 s and ignores the metrics listener.
  // A request without Host reaches the app, which answers it in JSON (server/middleware/host.ts).
  // Its responses count the bytes they write, for the request log (server/middleware/request-log.ts).
  const nodeOptions = { ...requestTimeouts(config), requireHostHeader: false, ServerResponse: CountedResponse };
  const server = serve(app, { port: config.port, hostname: config.host, silent: true, gracefulShutdown: false, node: nodeOptions });
  const node = server.node!.server as HttpServer;
  node.on("clientError", onClientError(config));
  node.on("checkExpectation", onUnsupportedExpectation);
  node.once("close", () => void closeRedis());
  let metrics: MetricsServer | undefined;
  const drain = gracefulShutdown(node, {
    graceMs: config.shutdownGraceMs,
    log,
    afterwards: async () => {
      await Promise.all([metrics?.close(), closeRedis(), deps.data?.stop()]);
    },
  });
  // GET /ready answers 503 from the moment the shutdown starts, while requests in flight finish.
  const shutdown: Shutdown = Object.assign(
    () => {
      draining = true;
      return drain();
    },
    { force: drain.force },
  );
  try {
    await Promise.all([
      server.ready().catch((err: unknown) => Promise.reject(listenError(err, "PORT", config.port, config.host))),
      redis?.connected,
      shared?.connected,
    ]);
    if (config.metricsPort !== undefined) {
      // Prometheus /metrics on its own port only, never on the public app.
      const { metricsPort } = config;
      const listening = await startMetricsServer(deps.usage.metrics, { port: metricsPort, host: config.host, log }).catch((err: unknown) =>
        Promise.reject(listenError(err, "METRICS_PORT", metricsPort, config.host)),
      );
      metrics = listening;
      log.info({ event: "metrics", port: listening.port }, `metrics on http://${config.host}:${listening.port}/metrics`);
    }
  } catch (err) {
    await Promise.all([new Promise((resolve) => node.close(resolve)), closeRedis(), deps.data?.stop()]);
    throw err;
  }
  deps.data?.start();
  if (options.signals ?? true) exitOnSignal(shutdown, log);
  const { port } = node.address() as AddressInfo; // PORT=0 takes any free port
  log.info(startFields(deps, port), `asset-search listening on http://${config.host}:${port} — ${describeDeps(deps)}`);
  return { app, server, deps, shutdown };
}
