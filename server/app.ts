import { readFileSync } from "node:fs";
import { H3, type H3Event, type RouteOptions } from "h3";
import { buildOpenApi } from "../core/openapi.ts";
import type { AppDeps } from "./context.ts";
import { ApiError, errorResponse } from "./errors.ts";
import { mcpMethodNotAllowed, mcpOpenApiPaths, mcpRoute } from "./mcp/http.ts";
import { requireApiKey } from "./middleware/auth.ts";
import { cors } from "./middleware/cors.ts";
import { allowedHosts, requireHostHeader, requireKnownHost } from "./middleware/host.ts";
import { createRateLimit } from "./middleware/rate-limit.ts";
import { assetRoute, filesRoute } from "./routes/assets.ts";
import { downloadRoute } from "./routes/download.ts";
import { searchRoute } from "./routes/search.ts";
import { catalog, listProviders } from "./service/sources.ts";
import { countSearch, counted, httpMetrics } from "./stats/hooks.ts";
import { createStatsRoute, statsOpenApiPaths } from "./stats/route.ts";

/** Routes under /v1/assets/: `<id>`, `<id>/files`, `<id>/download`; the id may hold encoded slashes. */
function assetsDispatch(event: H3Event, deps: AppDeps) {
  const rest = event.url.pathname.slice("/v1/assets/".length);
  const m = /^(.+?)(?:\/(files|download))?$/.exec(rest);
  if (!m) throw new ApiError(400, "missing asset id: expected /v1/assets/<provider>:<nativeId>");
  const [, id, action] = m;
  if (action === "files") return filesRoute(event, deps, id!);
  if (action === "download") return counted(event, downloadRoute(event, deps, id!), () => deps.usage.download());
  return counted(event, assetRoute(event, deps, id!), () => deps.usage.assetView());
}

/**
 * Which of the API's rules apply to a route, kept in its meta so that protection follows the route
 * the router matched, whatever spelling of the path reached it (`/mcp/`, `/v1//search`, `%73`).
 * - `cors`: readable from pages on any origin; preflights answered.
 * - `api`: also rate limited and, with a key configured, protected by the API key.
 * - `anyHost`: answered whatever the Host (health checks reach it by any name).
 */
interface Rules {
  cors?: boolean;
  api?: boolean;
  anyHost?: boolean;
}
const PAGE: RouteOptions = { meta: {} };
const OPEN: RouteOptions = { meta: { cors: true } satisfies Rules };
const API: RouteOptions = { meta: { cors: true, api: true } satisfies Rules };
const HEALTH: RouteOptions = { meta: { cors: true, anyHost: true } satisfies Rules };

const rulesOf = (event: H3Event): Rules => (event.context.matchedRoute?.meta ?? {}) as Rules;

/** Methods besides GET that get an answer of their own; HEAD is left to h3, which answers it with the GET route. */
const OTHER_METHODS = ["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "QUERY", "CONNECT", "TRACE"] as const;

export function createApp(deps: AppDeps): H3 {
  const { config } = deps.runtime;
  const rateLimit = createRateLimit(config.rateLimitPerMinute, config.trustProxyHops, deps.rateLimiter);
  const hosts = allowedHosts(config);
  const openapi = buildOpenApi({ extraPaths: { ...mcpOpenApiPaths(), ...statsOpenApiPaths() } });
  const statsRoute = createStatsRoute(deps);

  // silent: h3 would log every thrown 4xx; errorResponse logs the unexpected ones itself.
  const app = new H3({ silent: true, onError: (error, event) => errorResponse(error, event) });

  app.use(httpMetrics(deps.usage.metrics)); // first, so 401s and 429s are counted too

  app.use(async (event, next) => {
    const rules = rulesOf(event);
    requireHostHeader(event);
    if (!rules.anyHost) requireKnownHost(event, hosts);
    const preflight = rules.cors ? cors(event) : undefined;
    if (preflight) return preflight;
    if (rules.api) {
      await rateLimit?.consume(event);
      requireApiKey(event, config.apiKey);
    }
    return next();
  });

  const page = readFileSync(new URL("./web/index.html", import.meta.url), "utf8");
  const routes: [path: string, handler: (event: H3Event) => unknown, rules: RouteOptions][] = [
    ["/", (event) => counted(event, new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } }), () => deps.usage.pageView()), PAGE],
    ["/health", () => ({ ok: true }), HEALTH],
    ["/openapi.json", () => openapi, OPEN],
    ["/v1/search", (event) => countSearch(event, deps.usage, searchRoute(event, deps)), API],
    ["/v1/stats", (event) => statsRoute(event), API],
    ["/v1/providers", () => listProviders(deps), API],
    ["/v1/catalog", () => catalog(deps), API],
    ["/catalog.json", () => catalog(deps), OPEN],
    ["/catalog-history.json", () => deps.published.history, OPEN],
    ["/v1/assets/**", (event) => assetsDispatch(event, deps), API],
  ];
  for (const [path, handler, rules] of routes) {
    app.get(path, handler, rules);
    // The API's paths answer other methods (preflights aside) with a 405 under the same rules.
    if (rules !== PAGE) for (const method of OTHER_METHODS) app.on(method, path, notAllowed, rules);
  }
  // Every method reaches the MCP handler, so every one is protected like POST.
  app.all("/mcp", (event) => (event.req.method === "POST" ? mcpRoute(event, deps) : mcpMethodNotAllowed(event)), API);
  for (const method of [...OTHER_METHODS, "GET"] as const) {
    app.on(method, "/v1/**", notFound, API);
    app.on(method, "/**", notFound, PAGE);
  }
  return app;
}

function notAllowed(event: H3Event): never {
  throw new ApiError(405, `method ${event.req.method} not allowed on ${event.url.pathname}`, {}, { allow: "GET, HEAD" });
}

function notFound(event: H3Event): never {
  throw new ApiError(404, `no route for ${event.req.method} ${event.url.pathname}`);
}
