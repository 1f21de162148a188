import { createRequire } from "node:module";
import { getRequestIP, type H3Event } from "h3";
import type * as IORedis from "ioredis";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { clientPrefix } from "../../core/ip.ts";
import { ApiError } from "../errors.ts";

const WINDOW_SECONDS = 60;
/** Redis keys are `asset-search:rl:<client>`. */
const REDIS_KEY_PREFIX = "asset-search:rl";
/** A Redis command slower than this counts as an outage (the in-memory insurance answers). */
const REDIS_COMMAND_TIMEOUT_MS = 500;

export interface RateLimit {
  /** Counts the request and sets the contract's headers; throws a 429 ApiError past the quota. */
  consume(event: H3Event): Promise<void>;
}

/**
 * The client behind `hops` proxies of ours: the address that many hops from the right of the chain
 * socket ← X-Forwarded-For (0 = the socket address). Entries further left were written by the
 * client itself and are never trusted. IPv6 counts by its /64.
 */
export function clientKey(event: H3Event, hops: number): string {
  const forwarded =
    hops > 0
      ? (event.req.headers.get("x-forwarded-for") ?? "")
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
  const nearestFirst = [getRequestIP(event), ...forwarded.reverse()];
  const ip = nearestFirst[Math.min(hops, nearestFirst.length - 1)];
  return ip ? clientPrefix(ip) : "unknown";
}

function headers(limit: number, res: RateLimiterRes): Record<string, string> {
  const reset = Math.max(0, Math.ceil(res.msBeforeNext / 1000));
  const remaining = Math.max(0, res.remainingPoints);
  return {
    "RateLimit-Policy": `"default";q=${limit};w=${WINDOW_SECONDS}`,
    RateLimit: `"default";r=${remaining};t=${reset}`,
    "RateLimit-Limit": String(limit),
    "RateLimit-Remaining": String(remaining),
    "RateLimit-Reset": String(reset),
  };
}

/**
 * Per-client limit on /v1/* and /mcp with rate-limiter-flexible; `perMinute` 0 = off.
 * `limiter` lets a shared store (Redis) replace the in-memory one.
 */
export function createRateLimit(perMinute: number, proxyHops: number, limiter?: RateLimiterAbstract): RateLimit | undefined {
  if (perMinute <= 0) return undefined;
  const store = limiter ?? new RateLimiterMemory({ points: perMinute, duration: WINDOW_SECONDS });
  return {
    async consume(event) {
      try {
        const res = await store.consume(clientKey(event, proxyHops));
        for (const [k, v] of Object.entries(headers(perMinute, res))) event.res.headers.set(k, v);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const h = headers(perMinute, rejection);
        const wait = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        for (const [k, v] of Object.entries(h)) event.res.headers.set(k, v);
        throw new ApiError(
          429,
          `rate limit exceeded: ${perMinute} requests per ${WINDOW_SECONDS} seconds per client; retry in ${wait} s`,
          { retryAfter: wait },
          { "Retry-After": String(wait) },
        );
      }
    },
  };
}

export interface SharedLimiter {
  limiter: RateLimiterAbstract;
  /** Settles once the first connection attempt has: Redis ready, or an error (the insurance answers meanwhile). */
  connected: Promise<void>;
  /** Closes the Redis connection; later calls return the first one's promise (the server's close and the shutdown both call it). */
  close(): Promise<void>;
}

/**
 * The quota in Redis (`REDIS_URL`), shared by every replica. While Redis is unreachable or slow,
 * rate-limiter-flexible's insurance limiter counts in this process instead (each replica then
 * allows `perMinute` on its own), so a Redis outage never fails a request; Redis takes over again
 * once it is back.
 */
export function createRedisLimiter(url: string, perMinute: number): SharedLimiter {
  // No offline queue: while disconnected a command fails at once and the insurance limiter answers.
  // ioredis is loaded only when a Redis URL is configured: most servers count in memory, and it costs start time.
  const { Redis } = createRequire(import.meta.url)("ioredis") as typeof IORedis;
  const client = new Redis(url, { enableOfflineQueue: false, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
  const connected = new Promise<void>((resolve) => {
    client.once("ready", resolve);
    client.once("error", () => resolve());
  });
  let down = false; // log outages once, not on every reconnect attempt
  client.on("error", (error: Error) => {
    if (!down) console.error(`rate limit: Redis unavailable (${error.message}); counting per replica until it is back`);
    down = true;
  });
  client.on("ready", () => {
    if (down) console.error("rate limit: Redis is back; the quota is shared again");
    down = false;
  });
  const limiter = new RateLimiterRedis({
    storeClient: client,
    keyPrefix: REDIS_KEY_PREFIX,
    points: perMinute,
    duration: WINDOW_SECONDS,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ points: perMinute, duration: WINDOW_SECONDS }),
  });
  let closed: Promise<void> | undefined;
  return {
    limiter,
    connected,
    close: () =>
      (closed ??= client.quit().then(
        () => undefined,
        () => client.disconnect(),
      )),
  };
}
