/**
 * Graceful shutdown of the public server (replaces srvx's, which cuts requests after a fixed 5 s
 * and leaves other listeners, such as the metrics port, holding the process): stop accepting,
 * let requests in flight (zip downloads included) finish up to a grace period, cut what remains,
 * then close the rest (metrics listener, Redis).
 */
import type { Server } from "node:http";
import type { Logger } from "./log.ts";

export interface Shutdown {
  /** Starts the shutdown (once; later calls return the same promise); settles when everything is closed. */
  (): Promise<void>;
  /** Cuts the connections still open now, without waiting for the grace period. */
  force(): void;
}

/**
 * Once closing, a keep-alive connection is closed as soon as its response ends: left idle it
 * would hold `server.close` until Node's keepAliveTimeout.
 */
function closeIdleAfterResponses(server: Server, closing: () => boolean): void {
  server.on("request", (_req, res) => {
    res.once("finish", () => {
      if (closing()) setImmediate(() => server.closeIdleConnections());
    });
  });
}

/** Settles once the server stopped accepting and its last connection closed (Node's close also closes the idle ones now). */
function closed(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * The shutdown of `server`, then `afterwards` (what else to close). Call it before the server takes
 * requests, so that responses already in flight are seen.
 */
export function gracefulShutdown(server: Server, options: { graceMs: number; afterwards: () => Promise<void>; log: Logger }): Shutdown {
  let done: Promise<void> | undefined;
  let cut: string | undefined;
  const cutNow = (when: string) => {
    cut ??= when;
    server.closeAllConnections();
  };
  closeIdleAfterResponses(server, () => done !== undefined);
  const shutdown = () =>
    (done ??= (async () => {
      const timer = setTimeout(() => cutNow(`after ${options.graceMs} ms`), options.graceMs);
      await closed(server);
      clearTimeout(timer);
      if (cut) options.log.warn({ event: "shutdown_cut" }, `shutdown: requests still running ${cut} were cut`);
      await options.afterwards();
    })());
  return Object.assign(shutdown, { force: () => cutNow("at a second signal") });
}

/**
 * SIGTERM or SIGINT starts the shutdown and exits 0 once it is done (a stop asked for is not a
 * failure); a second signal cuts the connections still open at once.
 */
export function exitOnSignal(shutdown: Shutdown, log: Logger): void {
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) {
      shutdown.force();
      return;
    }
    started = true;
    log.info({ event: "shutdown", signal }, `${signal}: not accepting connections; requests in flight may finish (a second ${signal} cuts them)`);
    shutdown()
      .catch((err: unknown) => log.error({ event: "error", err }, "shutdown failed"))
      .finally(() => process.exit(0));
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
