import { type H3Event, HTTPResponse } from "h3";
import { UpstreamError } from "../core/http/types.ts";
import { SourceError, type SourceErrorKind, sourceErrorKind } from "../core/model/source-error.ts";
import type { ErrorBody } from "../core/schemas/index.ts";
import type { Logger } from "./log.ts";
import { requestIdOf } from "./middleware/request-log.ts";

/** An error the API answers with its own status and an `{ error }` body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extras: Omit<ErrorBody, "error"> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * Turns any thrown value into the contract's JSON error response; never leaks a stack, which goes
 * to `log` with the request's id when the error is none the API expects. The error's
 * own headers and content type go over those staged before it was thrown (the rate limit's, CORS),
 * and h3 writes the body with its length straight to the Node response (a web Response would be
 * streamed to it in chunks).
 */
export function errorResponse(error: unknown, event: H3Event, log: Logger): HTTPResponse {
  const cause = (error as { cause?: unknown }).cause;
  const err = cause instanceof ApiError || cause instanceof UpstreamError ? cause : error;
  let status = 500;
  let body: ErrorBody = { error: "internal error" };
  let headers: Record<string, string> = {};
  if (err instanceof ApiError) {
    status = err.status;
    body = { error: err.message, ...err.extras };
    headers = err.headers;
  } else if (err instanceof UpstreamError) {
    const failure = sourceFailure(err);
    status = failure.status;
    body = { error: failure.message };
  } else if (typeof (err as { status?: unknown }).status === "number") {
    // h3's own errors: 404 for unknown routes, 405 for wrong methods, 400 for malformed URLs.
    status = (err as { status: number }).status;
    const message = (err as Error).message;
    body = { error: status === 404 ? `no route for ${event.req.method} ${event.url.pathname}` : message || `HTTP ${status}` };
  }
  if (status >= 500 && !(err instanceof UpstreamError) && !(err instanceof ApiError)) {
    // h3 wraps what a handler threw: the thrown error is what the operator needs.
    log.error({ event: "error", requestId: requestIdOf(event), err: cause instanceof Error ? cause : err }, `unexpected error: answered ${status}`);
  }
  const staged = event.res.headers;
  staged.set("content-type", "application/json; charset=utf-8");
  for (const [k, v] of Object.entries(headers)) staged.set(k, v);
  return new HTTPResponse(JSON.stringify(body), { status });
}

const FAILED = { status: 502, says: "the source site failed" };

/** Each kind of source failure (core/model/source-error.ts) as every surface reports it: HTTP by the status, MCP by the sentence. */
const SOURCE_FAILURES: Record<SourceErrorKind, { status: number; says: string }> = {
  http: FAILED,
  shape: FAILED,
  refused: FAILED,
  timeout: { status: 504, says: "the source site did not answer in time" },
  config: { status: 503, says: "the source is not configured on this server" },
};

/** A source's failure, or an upstream request's, as the error the API and the MCP tools answer with. */
export function sourceFailure(err: SourceError | UpstreamError): ApiError {
  const { status, says } = SOURCE_FAILURES[err instanceof SourceError ? err.kind : sourceErrorKind(err)];
  return new ApiError(status, `${says}: ${err.message}`);
}
