import { UpstreamError, type UpstreamErrorKind } from "../http/types.ts";

/**
 * What went wrong with a source:
 * - `http`: the site answered an error status, or the connection failed;
 * - `shape`: the answer is not what the adapter reads (the site changed);
 * - `timeout`: no answer in time, or the request was given up;
 * - `config`: this server lacks what the source needs (a key);
 * - `refused`: the address guard or the site refused the request.
 */
export type SourceErrorKind = "http" | "shape" | "timeout" | "config" | "refused";

/** The one error a source throws; its message names the source once. */
export class SourceError extends Error {
  readonly status?: number;

  constructor(
    readonly source: string,
    readonly kind: SourceErrorKind,
    what: string,
    readonly url?: string,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(`${source}: ${what}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SourceError";
    if (options.status !== undefined) this.status = options.status;
  }
}

const KINDS: Record<UpstreamErrorKind, SourceErrorKind> = {
  http: "http",
  network: "http",
  unrecorded: "http",
  timeout: "timeout",
  aborted: "timeout",
  parse: "shape",
  blocked: "refused",
};

/** What an upstream request's failure is to a source. */
export const sourceErrorKind = (err: UpstreamError): SourceErrorKind => KINDS[err.kind];

/** Any failure of a source as a SourceError naming it once (one it already threw is kept as is). */
export function toSourceError(source: string, err: unknown): SourceError {
  if (err instanceof SourceError) return err;
  if (err instanceof UpstreamError) {
    return new SourceError(source, sourceErrorKind(err), err.message, err.url, { cause: err, ...(err.status !== undefined ? { status: err.status } : {}) });
  }
  return new SourceError(source, "shape", err instanceof Error ? err.message : String(err), undefined, { cause: err });
}
