/**
 * Fetching for sources: one client bound to the request's signal, whose failures name the source
 * (a body that is not JSON, an answer whose shape changed), and "gone" for 404 and 410.
 */
import type { z } from "zod";
import type { TextResponse } from "../../core/http/types.ts";
import type { SourceContext } from "../../core/model/source.ts";
import { SourceError } from "../../core/model/source-error.ts";

type Headers = Record<string, string>;

/** What an adapter fetches with: the context, and GETs that carry its signal and name its source. */
export interface SourceIo extends SourceContext {
  readonly source: string;
  /** `cache: false` for an answer that must not be reused (a bot challenge). */
  text(url: string, headers?: Headers, options?: { cache?: boolean }): Promise<TextResponse>;
  /** GET and parse JSON; a body that is not JSON is a `shape` error. */
  json<T = unknown>(url: string, headers?: Headers): Promise<T>;
  jsonWithHeaders<T = unknown>(url: string, headers?: Headers): Promise<{ body: T; headers: Headers }>;
  /** GET JSON and check it against `schema`; an answer of another shape is a `shape` error. */
  get<S extends z.ZodType>(url: string, schema: S, headers?: Headers): Promise<z.infer<S>>;
}

/** The key in the environment variable `env`; when it is not set, a `config` error saying why the source needs it. */
export function requiredKey(io: SourceIo, env: string, why: string): string {
  const key = io.config.keys[env];
  if (!key) throw new SourceError(io.source, "config", `${env} is not set (${why})`);
  return key;
}

/** The value of a JSON text; undefined when the text is no JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The context of one call into `source`, as a SourceIo. */
export function sourceIo(source: string, ctx: SourceContext): SourceIo {
  const text = (url: string, headers: Headers = {}, options: { cache?: boolean } = {}) => ctx.http.getText(url, { signal: ctx.signal, headers, ...options });
  const jsonWithHeaders = async <T>(url: string, headers: Headers = {}) => {
    const res = await text(url, { accept: "application/json", ...headers });
    const body = parseJson(res.text);
    if (body === undefined) throw new SourceError(source, "shape", `${url} did not answer JSON`, url, { status: res.status });
    return { body: body as T, headers: res.headers };
  };
  const json = async <T>(url: string, headers?: Headers) => (await jsonWithHeaders<T>(url, headers)).body;
  return {
    ...ctx,
    source,
    text,
    json,
    jsonWithHeaders,
    async get(url, schema, headers) {
      const parsed = schema.safeParse(await json(url, headers));
      if (!parsed.success) throw shapeError(source, url, `${url} answered an unexpected shape (${issueText(parsed.error)})`);
      return parsed.data;
    },
  };
}

const issueText = (error: z.ZodError) => {
  const issue = error.issues[0];
  return issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : "invalid";
};

/** The answer changed shape: what the adapter expected is not there. */
export function shapeError(source: string, url: string | undefined, what: string): SourceError {
  return new SourceError(source, "shape", what, url);
}

/** `body` as `schema` reads it; a body of another shape is a `shape` error saying `what`. */
export function expectShape<S extends z.ZodType>(source: string, url: string, schema: S, body: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw shapeError(source, url, what);
  return parsed.data;
}

/** 404 Not Found or 410 Gone: the asset is not, or no longer, on the site. */
export function isGone(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  return status === 404 || status === 410;
}

/** The request's answer, or undefined when the upstream says the asset is gone: details then answer null. */
export async function unlessGone<T>(request: Promise<T>): Promise<T | undefined> {
  return (await unlessAnyGone(request))?.[0];
}

/** An asset's details from its page, read by `parse`; null when the site says the page is gone. */
export async function detailsPage<T>(io: SourceIo, url: string, parse: (html: string) => T): Promise<T | null> {
  const page = await unlessGone(io.text(url));
  return page ? parse(page.text) : null;
}

/**
 * The answers of requests made together for one asset, or undefined when any says the asset is
 * gone (whichever finishes first); any other failure is thrown.
 */
export async function unlessAnyGone<T extends readonly unknown[]>(...requests: { [K in keyof T]: Promise<T[K]> }): Promise<T | undefined> {
  const settled = await Promise.allSettled(requests);
  const failures = settled.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
  if (failures.some(isGone)) return undefined;
  if (failures.length) throw failures[0];
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
