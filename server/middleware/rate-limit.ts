import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getRequestIP, type H3Event } from "h3";
import { ApiError } from "../errors.ts";

const WINDOW_SECONDS = 60;

export interface RateLimit {
  /** Counts the request and sets the contract's headers; throws a 429 ApiError past the quota. */
  consume(event: H3Event): Promise<void>;
}

/** The client: the socket address, or the first X-Forwarded-For entry only behind a trusted proxy. */
export function clientKey(event: H3Event, trustProxy: boolean): string {
  return getRequestIP(event, { xForwardedFor: trustProxy }) ?? "unknown";
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
 * Per-client limit on /v1/* and /mcp (contract §8) with rate-limiter-flexible; `perMinute` 0 = off.
 * `limiter` lets a shared store (Redis) replace the in-memory one.
 */
export function createRateLimit(perMinute: number, trustProxy: boolean, limiter?: RateLimiterAbstract): RateLimit | undefined {
  if (perMinute <= 0) return undefined;
  const store = limiter ?? new RateLimiterMemory({ points: perMinute, duration: WINDOW_SECONDS });
  return {
    async consume(event) {
      try {
        const res = await store.consume(clientKey(event, trustProxy));
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
