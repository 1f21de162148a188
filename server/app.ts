import { readFileSync } from "node:fs";
import { H3, type H3Event } from "h3";
import { buildOpenApi } from "../core/openapi.ts";
import { toProvider } from "../core/source.ts";
import type { AppDeps } from "./context.ts";
import { ApiError, errorResponse } from "./errors.ts";
import { mcpMethodNotAllowed, mcpOpenApiPaths, mcpRoute } from "./mcp/http.ts";
import { requireApiKey } from "./middleware/auth.ts";
import { createRateLimit } from "./middleware/rate-limit.ts";
import { assetRoute, filesRoute } from "./routes/assets.ts";
import { downloadRoute } from "./routes/download.ts";
import { searchRoute } from "./routes/search.ts";
import { countSearch, counted, httpMetrics } from "./stats/hooks.ts";
import { createStatsRoute, statsOpenApiPaths } from "./stats/route.ts";

const notPublished = () => new ApiError(404, "the catalog has not been published yet: run npm run pipeline");

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

export function createApp(deps: AppDeps): H3 {
  const { config } = deps.runtime;
  const rateLimit = createRateLimit(config.rateLimitPerMinute, config.trustProxy, deps.rateLimiter);
  const openapi = buildOpenApi({ extraPaths: { ...mcpOpenApiPaths(), ...statsOpenApiPaths() } });
  const statsRoute = createStatsRoute(deps);

  // silent: h3 would log every thrown 4xx; errorResponse logs the unexpected ones itself.
  const app = new H3({ silent: true, onError: (error, event) => errorResponse(error, event) });

  app.use(httpMetrics(deps.usage.metrics)); // first, so 401s and 429s are counted too

  // Contract §5 and §8: /v1/* and /mcp are rate limited and, with a key configured, protected.
  app.use(async (event, next) => {
    const path = event.url.pathname;
    if (path.startsWith("/v1/") || path === "/mcp") {
      await rateLimit?.consume(event);
      requireApiKey(event, config.apiKey);
    }
    return next();
  });

  const page = readFileSync(new URL("./web/index.html", import.meta.url), "utf8");
  app.get("/", (event) => counted(event, new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } }), () => deps.usage.pageView()));
  app.get("/health", () => ({ ok: true }));
  app.get("/openapi.json", () => openapi);
  app.get("/v1/search", (event) => countSearch(event, deps.usage, searchRoute(event, deps)));
  app.get("/v1/stats", (event) => statsRoute(event));
  app.get("/v1/providers", () => ({ providers: deps.sources.map((s) => toProvider(s, config.keys)) }));
  app.get("/v1/catalog", () => deps.published.catalog ?? Promise.reject(notPublished()));
  app.get("/catalog.json", () => deps.published.catalog ?? Promise.reject(notPublished()));
  app.get("/catalog-history.json", () => deps.published.history);
  app.get("/v1/assets/**", (event) => assetsDispatch(event, deps));
  app.post("/mcp", (event) => mcpRoute(event, deps));
  app.get("/mcp", mcpMethodNotAllowed);
  app.delete("/mcp", mcpMethodNotAllowed);
  const unrouted = (event: H3Event) => {
    const known = ["/health", "/openapi.json", "/v1/search", "/v1/providers", "/v1/catalog", "/v1/stats", "/catalog.json", "/catalog-history.json"];
    const path = event.url.pathname;
    if (path === "/mcp") mcpMethodNotAllowed(event);
    if (known.includes(path) || path.startsWith("/v1/assets/")) {
      throw new ApiError(405, `method ${event.req.method} not allowed on ${path}`, {}, { allow: "GET, HEAD" });
    }
    throw new ApiError(404, `no route for ${event.req.method} ${path}`);
  };
  // Not app.all: h3 answers HEAD with the GET route only when no route matches HEAD itself.
  app.get("/**", unrouted);
  for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "QUERY", "CONNECT", "TRACE"] as const) app.on(method, "/**", unrouted);
  return app;
}
