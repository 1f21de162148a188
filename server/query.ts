import type { H3Event } from "h3";
import type { z } from "zod";
import { ApiError } from "./errors.ts";

/** Validates the query string with a schema of core/schemas; the first problem becomes a 400. */
export function parseQuery<S extends z.ZodType>(event: H3Event, schema: S): z.output<S> {
  const raw: Record<string, string> = {};
  for (const [k, v] of event.url.searchParams) if (!(k in raw)) raw[k] = v;
  return parseParams(raw, schema);
}

/** Validates query-string-like parameters (the routes, and the MCP tools' arguments as strings); the first problem becomes a 400. */
export function parseParams<S extends z.ZodType>(raw: Record<string, string | undefined>, schema: S): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = issue.path.join(".");
  const message = issue.code === "custom" || issue.message.includes(name) ? issue.message : `${name}: ${issue.message}`;
  throw new ApiError(400, message);
}

/** Typed arguments (an MCP tool's, the command line's) as query-string values for parseParams: lists comma-separated, an empty list as none. */
export function queryValues(args: Record<string, string | number | boolean | readonly string[] | undefined>): Record<string, string | undefined> {
  const value = (v: string | number | boolean | readonly string[] | undefined) =>
    v === undefined ? undefined : typeof v === "object" ? (v.length ? v.join(",") : undefined) : String(v);
  return Object.fromEntries(Object.entries(args).map(([name, v]) => [name, value(v)]));
}
