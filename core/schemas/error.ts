import { z } from "zod";

export const ErrorBody = z
  .object({
    error: z.string(),
    url: z.url().optional(),
    retryAfter: z.int().min(0).optional(),
  })
  .meta({ id: "Error" });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The published data in service: where it came from, how old it is, and how following its source goes. */
export const DataStatus = z
  .object({
    source: z.enum(["url", "dir"]).describe("where the data in service was read: DATA_URL's publication or DATA_DIR"),
    url: z.string().optional().describe("DATA_URL, the publication the server follows, when set"),
    set: z.string().optional().describe("the DATA_DIR set in service (sets/<set>/), when the source is dir and DATA_DIR has sets"),
    builtAt: z.iso.datetime().describe("when the pipeline built the index in service"),
    ageSeconds: z.int().min(0).describe("seconds from builtAt to now"),
    assets: z.int().min(0).describe("assets in the index in service"),
    loadedAt: z.iso.datetime().describe("when this server put the data in service"),
    pollSeconds: z.int().min(0).describe("seconds between checks for a new publication (DATA_POLL_SECONDS); 0 = never"),
    lastCheckAt: z.iso.datetime().nullable().describe("when the source was last checked; null before the first check"),
    lastError: z
      .object({ at: z.iso.datetime(), message: z.string() })
      .nullable()
      .describe("the last check, when it failed (null when it succeeded): the data in service stayed as it was"),
  })
  .meta({ id: "DataStatus" });
export type DataStatus = z.infer<typeof DataStatus>;

export const Health = z.object({ ok: z.boolean(), data: DataStatus.optional().describe("the published data this server answers from") }).meta({ id: "Health" });

/** GET /ready's body: whether this replica should take traffic, and why not, with its data and Redis either way. */
export const Readiness = z
  .object({
    ready: z.boolean().describe("true: the data is loaded, the server is not draining and Redis answers where REDIS_REQUIRED=true"),
    reasons: z.array(z.string()).describe("why the server is not ready, one sentence each; empty when ready"),
    draining: z.boolean().describe("true from SIGTERM or SIGINT on: requests in flight finish, new connections are refused"),
    data: DataStatus.extend({
      loaded: z.boolean().describe("a published set is in service (false while a server started empty waits for DATA_URL's first)"),
    })
      .optional()
      .describe("the published data set in service (absent from an app built in process, which follows no publication)"),
    redis: z
      .object({
        state: z.enum(["up", "down", "unused"]).describe("REDIS_URL's connections; unused = no REDIS_URL"),
        required: z.boolean().describe("REDIS_REQUIRED: whether a Redis that is down makes the server not ready"),
        sharing: z
          .enum(["shared", "local"])
          .describe(
            "where the rate limit, the upstream response cache and the circuit breakers' state are kept now: shared = in Redis, for every replica; local = in this replica alone (no REDIS_URL, or Redis down)",
          ),
      })
      .describe("Redis, which holds what the replicas share: the rate limit, the upstream response cache and the circuit breakers' state"),
  })
  .meta({ id: "Readiness" });
export type Readiness = z.infer<typeof Readiness>;
