/**
 * Fetching for sources, through the context's client and signal, with errors that name the
 * source: a body that is not JSON, or a response whose shape changed.
 */
import { UpstreamError, type TextResponse } from "../../core/http/types.ts";
import type { SourceContext } from "../../core/source.ts";

/** GET a text body with the context's signal. */
export function fetchText(url: string, ctx: SourceContext): Promise<TextResponse> {
  return ctx.http.getText(url, { signal: ctx.signal });
}

/** GET and parse JSON; a body that is not JSON is an error naming the source. Returns the headers too. */
export async function fetchJsonWithHeaders<T = unknown>(
  source: string,
  url: string,
  ctx: SourceContext,
  headers: Record<string, string> = {},
): Promise<{ body: T; headers: Record<string, string> }> {
  const res = await ctx.http.getText(url, { signal: ctx.signal, headers: { accept: "application/json", ...headers } });
  try {
    return { body: JSON.parse(res.text) as T, headers: res.headers };
  } catch {
    throw new UpstreamError(`${source}: ${url} did not answer JSON`, url, "parse", res.status);
  }
}

export async function fetchJson<T = unknown>(source: string, url: string, ctx: SourceContext, headers?: Record<string, string>): Promise<T> {
  return (await fetchJsonWithHeaders<T>(source, url, ctx, headers)).body;
}

/** An error for a response whose shape changed, naming the source. */
export function shapeError(source: string, url: string, what: string): UpstreamError {
  return new UpstreamError(`${source}: ${what}`, url, "parse");
}

/** 404 Not Found or 410 Gone: the asset is not, or no longer, on the site. */
export function isGone(err: unknown): boolean {
  return err instanceof UpstreamError && (err.status === 404 || err.status === 410);
}

/** The request's value, or undefined when the upstream says the asset is gone: details then answer null. */
export async function unlessGone<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (err) {
    if (isGone(err)) return undefined;
    throw err;
  }
}
