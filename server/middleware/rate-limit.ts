import { createRequire } from "node:module";
import { getRequestIP, type H3Event } from "h3";
import type * as IORedis from "ioredis";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { clientPrefix } from "../../core/http/ip.ts";
import { ApiError } from "../errors.ts";
import type { Logger } from "../log.ts";

const WINDOW_SECONDS = 60;

/**
 * The quotas a client spends, each its own bucket, as multiples of RATE_LIMIT_PER_MINUTE:
 * `default` for every /v1 route and /mcp; `thumbnails` for GET /v1/assets/{id}/thumbnail, since
 * one page of results asks for 24 or more at once and must not spend the searches' quota.
 */
export const QUOTAS = {
  default: { factor: 1, counts: "requests" },
  thumbnails: { factor: 10, counts: "thumbnail requests" },
} as const;
export type Quota = keyof typeof QUOTAS;

/** One of something per quota (the compiler sees a quota added to QUOTAS and missing here). */
const perQuota = <T>(make: (quota: Quota, points: number) => T, perMinute: number): Record<Quota, T> => ({
  default: make("default", perMinute * QUOTAS.default.factor),
  thumbnails: make("thumbnails", perMinute * QUOTAS.thumbnails.factor),
});

/** Redis keys are `asset-search:rl:<client>` (the thumbnails' `asset-search:rl-thumbnails:<client>`). */
const redisKeyPrefix = (quota: Quota) => (quota === "default" ? "asset-search:rl" : `asset-search:rl-${quota}`);
/** A Redis command slower than this counts as an outage (the in-memory insurance answers). */
const REDIS_COMMAND_TIMEOUT_MS = 500;

export interface RateLimit {
  /** Counts the request against `quota` and sets the contract's headers; throws a 429 ApiError past it. */
  consume(event: H3Event, quota: Quota): Promise<void>;
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

function headers(quota: Quota, limit: number, res: RateLimiterRes): Record<string, string> {
  const reset = Math.max(0, Math.ceil(res.msBeforeNext / 1000));
  const remaining = Math.max(0, res.remainingPoints);
  return {
    "RateLimit-Policy": `"${quota}";q=${limit};w=${WINDOW_SECONDS}`,
    RateLimit: `"${quota}";r=${remaining};t=${reset}`,
    "RateLimit-Limit": String(limit),
    "RateLimit-Remaining": String(remaining),
    "RateLimit-Reset": String(reset),
  };
}

/**
 * Per-client limits on /v1/* and /mcp with rate-limiter-flexible, one per quota; `perMinute` 0 =
 * off. `limiters` lets a shared store (Redis) replace the in-memory ones.
 */
export function createRateLimit(perMinute: number, proxyHops: number, limiters: Partial<Record<Quota, RateLimiterAbstract>> = {}): RateLimit | undefined {
  if (perMinute <= 0) return undefined;
  const buckets = perQuota((quota, points) => ({ points, store: limiters[quota] ?? new RateLimiterMemory({ points, duration: WINDOW_SECONDS }) }), perMinute);
  return {
    async consume(event, quota) {
      const { points, store } = buckets[quota];
      try {
        const res = await store.consume(clientKey(event, proxyHops));
        for (const [k, v] of Object.entries(headers(quota, points, res))) event.res.headers.set(k, v);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const h = headers(quota, points, rejection);
        const wait = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        for (const [k, v] of Object.entries(h)) event.res.headers.set(k, v);
        throw new ApiError(
          429,
          `rate limit exceeded: ${points} ${QUOTAS[quota].counts} per ${WINDOW_SECONDS} seconds per client; retry in ${wait} s`,
          { retryAfter: wait },
          { "Retry-After": String(wait) },
        );
      }
    },
  };
}

export interface SharedLimiter {
  /** One limiter per quota, on the same connection. */
  limiters: Record<Quota, RateLimiterAbstract>;
  /** Settles once the first connection attempt has: Redis ready, or an error (the insurance answers meanwhile). */
  connected: Promise<void>;
  /** Whether the connection is ready for commands now (GET /ready). */
  state(): "up" | "down";
  /** Closes the Redis connection; later calls return the first one's promise (the server's close and the shutdown both call it). */
  close(): Promise<void>;
}

/**
 * The quota in Redis (`REDIS_URL`), shared by every replica. While Redis is unreachable or slow,
 * rate-limiter-flexible's insurance limiter counts in this process instead (each replica then
 * allows `perMinute` on its own), so a Redis outage never fails a request; Redis takes over again
 * once it is back.
 */
export function createRedisLimiter(url: string, perMinute: number, log: Logger): SharedLimiter {
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
    if (!down) log.warn({ event: "redis_down", error: error.message }, "rate limit: Redis unavailable; counting per replica until it is back");
    down = true;
  });
  client.on("ready", () => {
    if (down) log.info({ event: "redis_up" }, "rate limit: Redis is back; the quota is shared again");
    down = false;
  });
  const limiters = perQuota(
    (quota, points): RateLimiterAbstract =>
      new RateLimiterRedis({
        storeClient: client,
        keyPrefix: redisKeyPrefix(quota),
        points,
        duration: WINDOW_SECONDS,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory({ points, duration: WINDOW_SECONDS }),
      }),
    perMinute,
  );
  let closed: Promise<void> | undefined;
  return {
    limiters,
    connected,
    state: () => (client.status === "ready" ? "up" : "down"),
    close: () =>
      (closed ??= client.quit().then(
        () => undefined,
        () => client.disconnect(),
      )),
  };
}
