/**
 * What an entry of the route table (server/routes/table.ts) holds. server/app.ts registers the
 * entries with h3 and answers from them the methods and paths they do not take; /openapi.json is
 * their operations.
 */
import type { H3Event } from "h3";
import type { AppDeps } from "../context.ts";
import type { Quota } from "../middleware/rate-limit.ts";
import type { Endpoint } from "../openapi.ts";

/**
 * Which of the API's rules apply to a route, kept in its meta so that protection follows the route
 * the router matched, whatever spelling of the path reached it (`/mcp/`, `/v1//search`, `%73`).
 * - `cors`: readable from pages on any origin; preflights answered.
 * - `api`: also rate limited and, with a key configured, protected by the API key.
 * - `anyHost`: answered whatever the Host (health checks reach it by any name).
 * - `quota`: the rate limit's bucket for an `api` route (server/middleware/rate-limit.ts); `default` when unset.
 */
export type Rules = { cors?: boolean; api?: boolean; anyHost?: boolean; quota?: Quota };
export const PAGE: Rules = {};
export const OPEN: Rules = { cors: true };
export const API: Rules = { cors: true, api: true };
/** The API's rules, counted in the thumbnails' own, larger bucket. */
export const THUMBNAILS: Rules = { ...API, quota: "thumbnails" };
export const HEALTH: Rules = { cors: true, anyHost: true };

/** Answers a request; `id` is the path's `{id}` (an asset id, as sent) and `path` its `{path}` (as sent), "" on paths without them. */
export type Handler = (event: H3Event, id: string, path: string) => unknown;

interface RouteBase extends Endpoint {
  /** As README.md and /openapi.json write it; `{id}` is an asset id and a last `{path}` a file path, both of which may hold slashes. */
  path: string;
  rules: Rules;
  /** Makes the handler of one app from its deps, once: the stats cache and the OpenAPI document live in it. */
  handler: (deps: AppDeps) => Handler;
  /** How /openapi.json describes it; the page has none, being no part of the API. */
  operation?: Record<string, unknown>;
}

/** A GET route (h3 answers HEAD with it); a documented one answers the other usual methods with a 405. */
interface GetRoute extends RouteBase {
  method: "GET";
}

/** A POST route, answering every other method with `refuse` (POST /mcp: a 405 that says why). */
interface PostRoute extends RouteBase {
  method: "POST";
  refuse: (event: H3Event) => never;
}

export type Route = GetRoute | PostRoute;

/** A GET route of the table in one line: its path, rules, handler and operation. */
export const get = (path: string, rules: Rules, handler: RouteBase["handler"], operation?: Record<string, unknown>): Route => ({
  method: "GET",
  path,
  rules,
  handler,
  ...(operation ? { operation } : {}),
});
