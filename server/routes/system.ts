/** The health check (liveness) and the readiness check. */
import type { H3Event } from "h3";
import type { Readiness } from "../../core/schemas/index.ts";
import type { AppDeps } from "../context.ts";
import { jsonResponse } from "../openapi.ts";
import { get, HEALTH } from "./route.ts";

/** Up, and the published data's source and age (the server keeps answering from older data when a new one fails). */
export const healthRoute = get("/health", HEALTH, (deps) => () => ({ ok: true, ...(deps.data ? { data: deps.data.status() } : {}) }), {
  operationId: "getHealth",
  tags: ["System"],
  summary: "Liveness check",
  description: "200 while the process answers, with the published data's source and age. Not rate limited, no key, any Host.",
  security: [],
  responses: { 200: jsonResponse("The server is up", "Health") },
});

/** Whether this replica should take traffic now, with the reasons it should not. */
export function readiness(deps: AppDeps): Readiness {
  const { config } = deps.runtime;
  const draining = deps.lifecycle?.draining() ?? false;
  const loaded = deps.data?.loaded() ?? true;
  const state = deps.lifecycle?.redis() ?? "unused";
  // While Redis is down each replica works alone: its own rate limit, upstream cache and breakers.
  const redis = { state, required: config.redisRequired, sharing: state === "up" ? "shared" : "local" } as const;
  const reasons = [
    ...(draining ? ["shutting down: requests in flight finish, new connections are refused"] : []),
    ...(loaded ? [] : [`no published data loaded yet: waiting for ${config.dataUrl ? `DATA_URL (${config.dataUrl})` : "DATA_DIR"}`]),
    ...(redis.required && redis.state !== "up" ? [`Redis (REDIS_URL) is ${redis.state} and REDIS_REQUIRED=true`] : []),
  ];
  return { ready: reasons.length === 0, reasons, draining, ...(deps.data ? { data: { ...deps.data.status(), loaded } } : {}), redis };
}

/** 200 when ready, 503 otherwise; the same body either way. */
export const readyRoute = get(
  "/ready",
  HEALTH,
  (deps) => (event: H3Event) => {
    const body = readiness(deps);
    // A probe must see the state of now, never a cached answer.
    event.res.headers.set("cache-control", "no-store");
    if (!body.ready) event.res.status = 503;
    return body;
  },
  {
    operationId: "getReady",
    tags: ["System"],
    summary: "Readiness check",
    description:
      "200 when the published data is loaded, the server is not shutting down and, with REDIS_REQUIRED=true, Redis is connected; 503 otherwise, with the reasons. `redis.sharing` says whether this replica shares its rate limit, upstream cache and breakers through Redis now, or works alone (Redis down or unset). Not rate limited, no key, any Host.",
    security: [],
    responses: {
      200: jsonResponse("Ready to take traffic", "Readiness"),
      503: jsonResponse("Not ready: `reasons` says why (data not loaded yet, shutting down, required Redis down)", "Readiness"),
    },
  },
);
