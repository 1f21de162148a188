import { H3, type H3Event } from "h3";
import type { AppDeps } from "./context.ts";
import { ApiError, errorResponse } from "./errors.ts";
import { noLog } from "./log.ts";
import { requireApiKey } from "./middleware/auth.ts";
import { compressJson } from "./middleware/compress.ts";
import { cors } from "./middleware/cors.ts";
import { allowedHosts, requireHostHeader, requireKnownHost } from "./middleware/host.ts";
import { createRateLimit } from "./middleware/rate-limit.ts";
import { requestLog } from "./middleware/request-log.ts";
import { API, type Handler, PAGE, type Route, type Rules } from "./routes/route.ts";
import { ROUTES } from "./routes/table.ts";
import { ThumbnailUrls } from "./service/thumbnail-urls.ts";
import { httpMetrics } from "./stats/hooks.ts";

/**
 * A route's meta: its rules and path template, or, for a catch-all shared by several routes, the
 * route a path picks (whose rules and template apply; without one, the catch-all's rules).
 */
type Meta = Rules & { template?: string; pick?: (pathname: string) => Route | undefined };

const metaOf = (event: H3Event): Meta => (event.context.matchedRoute?.meta ?? {}) as Meta;

const rulesOf = (event: H3Event): Rules => {
  const meta = metaOf(event);
  return meta.pick?.(event.url.pathname)?.rules ?? meta;
};

/** The route template a request log line names (never the path itself, which holds asset ids); `unmatched` off the table. */
const routeOf = (event: H3Event): string => {
  const meta = metaOf(event);
  return (meta.pick ? meta.pick(event.url.pathname)?.path : meta.template) ?? "unmatched";
};

/** Methods besides GET that get an answer of their own; HEAD is left to h3, which answers it with the GET route. */
const OTHER_METHODS = ["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "QUERY", "CONNECT", "TRACE"] as const;

export function createApp(given: AppDeps): H3 {
  // The search routes fill it and the thumbnail route reads it: one per app.
  const deps: AppDeps = { ...given, thumbnailUrls: given.thumbnailUrls ?? new ThumbnailUrls() };
  const { config } = deps.runtime;
  const rateLimit = createRateLimit(config.rateLimitPerMinute, config.trustProxyHops, deps.rateLimiters);
  const hosts = allowedHosts(config);

  const log = deps.log ?? noLog;
  // silent: h3 would log every thrown 4xx; errorResponse logs the unexpected ones itself.
  // allowMalformedURL: a path that is not valid percent-encoding reaches the routes, which name it
  // (a 404 page for a page, a 400 for an asset id) instead of h3's bare "Bad Request".
  const app = new H3({ silent: true, allowMalformedURL: true, onError: (error, event) => errorResponse(error, event, log) });

  app.use(requestLog(log, routeOf)); // first, so every answer carries its id and its line covers all the rest
  app.use(httpMetrics(deps.usage.metrics)); // before the rules, so 401s and 429s are counted too
  app.use(compressJson);

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
    return rateLimit.consume(event, rules.quota ?? "default").then(() => {
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
 * catch-all from there on (`/v1/assets/**`) that tells them apart by how the path ends (see
 * `byEnding`); its meta gives the rules of the route a path picks. Anything the table does not
 * hold is a 404, under the API's rules below `/v1/` (so unknown API paths are rate limited and
 * protected too).
 */
function registerRoutes(app: H3, deps: AppDeps): void {
  const withId = new Map<string, Ending[]>();
  for (const route of ROUTES) {
    const handle = route.handler(deps);
    const at = route.path.indexOf("{id}");
    if (at < 0) {
      register(app, route, route.path, (event) => handle(event, "", ""));
      continue;
    }
    const prefix = route.path.slice(0, at);
    withId.set(prefix, [...(withId.get(prefix) ?? []), endingOf(route, route.path.slice(at + "{id}".length), handle)]);
  }
  for (const [prefix, endings] of withId) {
    const match = byEnding(prefix, endings);
    // The first route's method stands for the routes that share its catch-all (all GET).
    const first = endings[0]!.route;
    const meta: Meta = { ...first.rules, pick: (pathname) => match(pathname)?.route };
    register(
      app,
      first,
      `${prefix}**`,
      (event) => {
        const found = match(event.url.pathname);
        if (!found) throw new ApiError(400, `missing asset id: expected ${prefix}<provider>:<nativeId>`);
        return found.handle(event, found.id, found.path);
      },
      meta,
    );
  }
  for (const method of [...OTHER_METHODS, "GET"] as const) {
    app.on(method, "/v1/**", notFound, { meta: API });
    app.on(method, "/**", notFound, { meta: PAGE });
  }
}

/**
 * How a route with an `{id}` is told apart: the text after the id (`/files`, "" for the bare id),
 * or for a route ending in `/{path}` the text before the path (`/raw/`), which a path follows.
 */
interface Ending {
  route: Route;
  ending: string;
  withPath: boolean;
  handle: Handler;
}

const PATH = "{path}";

function endingOf(route: Route, after: string, handle: Handler): Ending {
  const withPath = after.endsWith(`/${PATH}`);
  return { route, ending: withPath ? after.slice(0, -PATH.length) : after, withPath, handle };
}

/**
 * The route a path picks, with its id (and path). First the fixed endings, the longest first
 * (`/files` before the bare id), so every path that ends like one keeps that route; then the
 * endings followed by a path, at the first place they occur (`…/raw/textures/a.jpg`: an id that
 * holds `/raw/` itself must encode its slashes there); the bare id last.
 */
function byEnding(prefix: string, endings: Ending[]): (pathname: string) => (Ending & { id: string; path: string }) | undefined {
  const rank = (e: Ending) => (e.withPath ? 1 : e.ending ? 0 : 2);
  const ordered = [...endings].sort((a, b) => rank(a) - rank(b) || b.ending.length - a.ending.length);
  return (pathname) => {
    const rest = pathname.slice(prefix.length);
    for (const e of ordered) {
      if (!e.withPath) {
        if (rest.length > e.ending.length && rest.endsWith(e.ending)) return { ...e, id: rest.slice(0, rest.length - e.ending.length), path: "" };
        continue;
      }
      const at = rest.indexOf(e.ending);
      if (at > 0 && at + e.ending.length < rest.length) return { ...e, id: rest.slice(0, at), path: rest.slice(at + e.ending.length) };
    }
    return undefined;
  };
}

/**
 * A GET route, and for a documented one (the API's; the page is not) a 405 for the other methods
 * under the same rules; a POST route refuses every other method itself.
 */
function register(app: H3, route: Route, path: string, handle: (event: H3Event) => unknown, meta: Meta = { ...route.rules, template: route.path }): void {
  const options = { meta };
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
