import { H3, type H3Event } from "h3";
import type { AppDeps } from "./context.ts";
import { ApiError, errorResponse } from "./errors.ts";
import { requireApiKey } from "./middleware/auth.ts";
import { cors } from "./middleware/cors.ts";
import { allowedHosts, requireHostHeader, requireKnownHost } from "./middleware/host.ts";
import { createRateLimit } from "./middleware/rate-limit.ts";
import { API, type Handler, PAGE, type Route, type Rules } from "./routes/route.ts";
import { ROUTES } from "./routes/table.ts";
import { httpMetrics } from "./stats/hooks.ts";

const rulesOf = (event: H3Event): Rules => (event.context.matchedRoute?.meta ?? {}) as Rules;

/** Methods besides GET that get an answer of their own; HEAD is left to h3, which answers it with the GET route. */
const OTHER_METHODS = ["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "QUERY", "CONNECT", "TRACE"] as const;

export function createApp(deps: AppDeps): H3 {
  const { config } = deps.runtime;
  const rateLimit = createRateLimit(config.rateLimitPerMinute, config.trustProxyHops, deps.rateLimiter);
  const hosts = allowedHosts(config);

  // silent: h3 would log every thrown 4xx; errorResponse logs the unexpected ones itself.
  const app = new H3({ silent: true, onError: (error, event) => errorResponse(error, event) });

  app.use(httpMetrics(deps.usage.metrics)); // first, so 401s and 429s are counted too

  app.use((event, next) => {
    // No answer of this server is ever to be read as another type than it says (a JSON error as HTML, a preview file as script).
    event.res.headers.set("x-content-type-options", "nosniff");
    const rules = rulesOf(event);
    requireHostHeader(event);
    if (!rules.anyHost) requireKnownHost(event, hosts);
    const preflight = rules.cors ? cors(event) : undefined;
    if (preflight) return preflight;
    if (!rules.api) return next();
    // Synchronous unless a rate limit has to be asked: no promise per request for nothing.
    if (!rateLimit) {
      requireApiKey(event, config.apiKey);
      return next();
    }
    return rateLimit.consume(event).then(() => {
      requireApiKey(event, config.apiKey);
      return next();
    });
  });

  registerRoutes(app, deps);
  return app;
}

/**
 * Registers the route table. A route's rules go into its meta, read back above from the route the
 * router matched. An `{id}` may hold slashes (encoded or not), so the routes with one share a
 * catch-all from there on (`/v1/assets/**`) that tells them apart by how the path ends. Anything
 * the table does not hold is a 404, under the API's rules below `/v1/` (so unknown API paths are
 * rate limited and protected too).
 */
function registerRoutes(app: H3, deps: AppDeps): void {
  const withId = new Map<string, { route: Route; endings: { ending: string; handle: Handler }[] }>();
  for (const route of ROUTES) {
    const handle = route.handler(deps);
    const at = route.path.indexOf("{id}");
    if (at < 0) {
      register(app, route, route.path, (event) => handle(event, ""));
      continue;
    }
    const prefix = route.path.slice(0, at);
    // The first route's method and rules stand for the routes that share its catch-all.
    const shared = withId.get(prefix) ?? { route, endings: [] };
    shared.endings.push({ ending: route.path.slice(at + "{id}".length), handle });
    withId.set(prefix, shared);
  }
  for (const [prefix, { route, endings }] of withId) register(app, route, `${prefix}**`, byEnding(prefix, endings));
  for (const method of [...OTHER_METHODS, "GET"] as const) {
    app.on(method, "/v1/**", notFound, { meta: API });
    app.on(method, "/**", notFound, { meta: PAGE });
  }
}

/** The handler of the route whose ending ends the path, the longest first (`/files` before the bare id), with the id before it. */
function byEnding(prefix: string, endings: { ending: string; handle: Handler }[]): (event: H3Event) => unknown {
  const longestFirst = [...endings].sort((a, b) => b.ending.length - a.ending.length);
  return (event) => {
    const rest = event.url.pathname.slice(prefix.length);
    const match = longestFirst.find(({ ending }) => rest.length > ending.length && rest.endsWith(ending));
    if (!match) throw new ApiError(400, `missing asset id: expected ${prefix}<provider>:<nativeId>`);
    return match.handle(event, rest.slice(0, rest.length - match.ending.length));
  };
}

/**
 * A GET route, and for a documented one (the API's; the page is not) a 405 for the other methods
 * under the same rules; a POST route refuses every other method itself.
 */
function register(app: H3, route: Route, path: string, handle: (event: H3Event) => unknown): void {
  const options = { meta: route.rules };
  if (route.method === "POST") {
    const { refuse } = route;
    app.all(path, (event) => (event.req.method === "POST" ? handle(event) : refuse(event)), options);
    return;
  }
  app.get(path, handle, options);
  if (route.operation) for (const method of OTHER_METHODS) app.on(method, path, notAllowed, options);
}

function notAllowed(event: H3Event): never {
  throw new ApiError(405, `method ${event.req.method} not allowed on ${event.url.pathname}`, {}, { allow: "GET, HEAD" });
}

function notFound(event: H3Event): never {
  throw new ApiError(404, `no route for ${event.req.method} ${event.url.pathname}`);
}
