import type { H3Event } from "h3";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import type { Runtime } from "../core/model/runtime.ts";
import type { Source } from "../core/model/source.ts";
import type { Published } from "../core/publication/published.ts";
import type { BreakerRegistry } from "../core/search/circuit-breaker.ts";
import type { DataFollower } from "./data/follow.ts";
import type { Logger } from "./log.ts";
import type { Quota } from "./middleware/rate-limit.ts";
import type { ThumbnailUrls } from "./service/thumbnail-urls.ts";
import type { Usage } from "./stats/usage.ts";

/** Everything a route needs, built once per process. */
export interface AppDeps {
  runtime: Runtime;
  sources: readonly Source[];
  /** The data in service: one object whose fields a new publication replaces together (server/data/follow.ts). */
  published: Published;
  /** Follows the publication (DATA_URL or DATA_DIR) and reports on it in /health; set by createDeps. */
  data?: DataFollower;
  breakers: BreakerRegistry;
  /** Usage statistics and metrics (server/stats/usage.ts): aggregate counts only. */
  usage: Usage;
  /** The rate limit's shared stores, one per quota (Redis, set by startServer with REDIS_URL); else it counts in memory. */
  rateLimiters?: Partial<Record<Quota, RateLimiterAbstract>>;
  /** What GET /ready asks besides the data, set by startServer: whether the server is draining, and Redis's connection (undefined = no Redis). */
  lifecycle?: { draining(): boolean; redis(): "up" | "down" | undefined };
  /** The server's logger (server/log.ts), set by createDeps: one line per request and per event; without it nothing is logged. */
  log?: Logger;
  /** The thumbnail URLs of recent search results, for GET /v1/assets/{id}/thumbnail; createApp makes one when absent. */
  thumbnailUrls?: ThumbnailUrls;
}

/** The absolute base URL for links this server hands out: the configured one, else the request's origin. */
export function publicBase(deps: AppDeps, event: H3Event): string {
  return deps.runtime.config.publicUrl ?? event.url.origin;
}
