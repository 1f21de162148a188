import { createRequire } from "node:module";
import type * as IORedis from "ioredis";
import type { Config } from "../../core/config.ts";
import type { SharedCache } from "../../core/http/shared-cache.ts";
import type { SharedBreakers } from "../../core/search/circuit-breaker.ts";
import type { Logger } from "../log.ts";
import { BREAKER_CHANNEL, redisBreakers } from "./redis-breakers.ts";
import { redisCache } from "./redis-cache.ts";

/** A Redis command slower than this counts as an outage, as for the rate limit: the replica goes on alone. */
const REDIS_COMMAND_TIMEOUT_MS = 500;

/** What the replicas share through REDIS_URL besides the rate limit (server/middleware/rate-limit.ts). */
export interface SharedState {
  /** The upstream responses; undefined with HTTP_CACHE_SHARED_MAX_BYTES=0. */
  cache: SharedCache | undefined;
  breakers: SharedBreakers;
  /** Settles once the first connection attempt has: Redis ready, or an error (each replica works alone meanwhile). */
  connected: Promise<void>;
  /** "up" while both connections are ready (GET /ready). */
  state(): "up" | "down";
  /** Closes both connections; later calls return the first one's promise. */
  close(): Promise<void>;
}

/**
 * The upstream cache and the circuit breakers' state in Redis: one connection for commands and
 * one subscribed to the breakers' channel. No offline queue: while Redis is down a command fails at
 * once, so a request never waits for it; the cache misses, the breakers count alone, and a line
 * says so, and another when Redis is back.
 */
export function connectShared(config: Pick<Config, "redisUrl" | "cacheSharedMaxBytes">, log: Logger): SharedState {
  // Loaded only when a Redis URL is configured, as for the rate limit: it costs start time.
  const { Redis } = createRequire(import.meta.url)("ioredis") as typeof IORedis;
  const options = { enableOfflineQueue: false, commandTimeout: REDIS_COMMAND_TIMEOUT_MS };
  const client = new Redis(config.redisUrl!, options);
  // Subscribed again on every (re)connection, by hand: ioredis's own resubscription needs the offline queue.
  const subscriber = new Redis(config.redisUrl!, { ...options, autoResubscribe: false });
  const breakers = redisBreakers(client, subscriber);
  const attempted = (c: IORedis.Redis) =>
    new Promise<void>((resolve) => {
      c.once("ready", resolve);
      c.once("error", () => resolve());
    });
  const connected = Promise.all([attempted(client), attempted(subscriber)]).then(() => undefined);
  let closed: Promise<void> | undefined;
  let down = false; // one line per outage, not one per reconnection attempt
  const wentDown = (why: string) => {
    if (down || closed) return;
    down = true;
    log.warn(
      { event: "redis_down", error: why },
      "shared state: Redis unavailable; the upstream cache and the circuit breakers are per replica until it is back",
    );
  };
  // A Redis that stops closes the connection first; the error comes with the first failed reconnection.
  client.on("close", () => wentDown("connection closed"));
  client.on("error", (error: Error) => wentDown(error.message));
  client.on("ready", () => {
    if (down) log.info({ event: "redis_up" }, "shared state: Redis is back; the upstream cache and the circuit breakers are shared again");
    down = false;
    breakers.resync().catch(() => undefined);
  });
  // The command connection reports the outage; this one would only repeat it.
  subscriber.on("error", () => undefined);
  subscriber.on("ready", () => void subscriber.subscribe(BREAKER_CHANNEL).catch(() => undefined));
  const quit = (c: IORedis.Redis) =>
    c.quit().then(
      () => undefined,
      () => c.disconnect(),
    );
  return {
    cache: config.cacheSharedMaxBytes > 0 ? redisCache(client, config.cacheSharedMaxBytes) : undefined,
    breakers,
    connected,
    state: () => (client.status === "ready" && subscriber.status === "ready" ? "up" : "down"),
    close: () => (closed ??= Promise.all([quit(client), quit(subscriber)]).then(() => undefined)),
  };
}
