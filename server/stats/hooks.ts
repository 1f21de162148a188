/**
 * Where the public app counts, kept out of the route files: the surface of a search,
 * the wrappers that count a route's success, and the HTTP metrics middleware.
 */
import type { H3Event, Middleware } from "h3";
import type { SearchResponse } from "../../core/schemas/index.ts";
import { clientFamily } from "./client-family.ts";
import type { Metrics, Surface } from "./metrics.ts";
import type { Usage } from "./usage.ts";

/** A web front end on another origin may send `x-asset-search-client: web` to be counted as web. */
export const WEB_CLIENT_HEADER = "x-asset-search-client";

/**
 * `web` for the search page, `api` for anything else. The signal is `Sec-Fetch-Site: same-origin`:
 * browsers set it themselves on every fetch (page scripts cannot), and the only page of this
 * origin that searches is the search page at `/`. It identifies no one. WEB_CLIENT_HEADER is the
 * explicit alternative for a front end served elsewhere.
 */
export function surfaceOf(event: H3Event): Exclude<Surface, "mcp"> {
  const h = event.req.headers;
  if (h.get(WEB_CLIENT_HEADER)?.trim().toLowerCase() === "web") return "web";
  if (h.get("sec-fetch-site") === "same-origin") return "web";
  return "api";
}

/** HEAD only asks for headers (monitors, link checkers): it is never a use of the service. */
const isUse = (event: H3Event) => event.req.method === "GET";

/** Counts an answered GET /v1/search (a refused one, 400 or 429, is not a search). */
export async function countSearch<A extends Pick<SearchResponse, "types"> & { results: readonly unknown[] }>(
  event: H3Event,
  usage: Usage,
  answer: Promise<A>,
): Promise<A> {
  const res = await answer;
  if (!isUse(event)) return res;
  usage.search({
    surface: surfaceOf(event),
    types: res.types ?? [],
    hadResults: res.results.length > 0,
    client: clientFamily(event.req.headers.get("user-agent")),
  });
  return res;
}

/** Runs `count` once `answer` to a GET succeeds (asset views, downloads, page views). */
export async function counted<T>(event: H3Event, answer: T | Promise<T>, count: () => void): Promise<T> {
  const res = await answer;
  if (isUse(event)) count();
  return res;
}

/** HTTP requests of the public app into the metrics: route template, method, status, duration. */
export function httpMetrics(metrics: Metrics): Middleware {
  return async (event, next) => {
    const started = performance.now();
    let status = 500;
    try {
      const out = await next();
      status = out instanceof Response ? out.status : typeof out === "symbol" ? 404 : (event.res.status ?? 200);
      return out;
    } catch (err) {
      const s = (err as { status?: unknown } | null)?.status;
      status = typeof s === "number" ? s : 500;
      throw err;
    } finally {
      metrics.httpRequest(event.url.pathname, event.req.method, status, (performance.now() - started) / 1000);
    }
  };
}
