import type { H3Event } from "h3";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import type { BreakerRegistry } from "../core/circuit-breaker.ts";
import type { Published } from "../core/published.ts";
import type { Runtime } from "../core/runtime.ts";
import type { Source } from "../core/source.ts";
import type { Usage } from "./stats/usage.ts";

/** Everything a route needs, built once per process. */
export interface AppDeps {
  runtime: Runtime;
  sources: readonly Source[];
  published: Published;
  breakers: BreakerRegistry;
  /** Usage statistics and metrics (server/stats/usage.ts): aggregate counts only. */
  usage: Usage;
  /** The rate limit's shared store (Redis, set by startServer with REDIS_URL); else it counts in memory. */
  rateLimiter?: RateLimiterAbstract;
}

/** The absolute base URL for links this server hands out: the configured one, else the request's origin. */
export function publicBase(deps: AppDeps, event: H3Event): string {
  return deps.runtime.config.publicUrl ?? event.url.origin;
}
