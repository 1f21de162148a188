import type { Readable } from "node:stream";

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Aborts the request (and the body stream) when the caller goes away. */
  signal?: AbortSignal;
  /** Overall deadline of this call; distinct from the client's connect/headers/body timeouts. */
  timeoutMs?: number;
  /** Use and fill the response cache (GET only); default true for getText/getJson. */
  cache?: boolean;
}

export interface TextResponse {
  /** Final URL after redirects. */
  url: string;
  status: number;
  headers: Record<string, string>;
  text: string;
}

export interface StreamResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  /** Content length when the upstream announced it. */
  sizeBytes?: number;
  body: Readable;
}

/** `unrecorded`: replay mode has no recording of the URL (not a failure of the site). */
export type UpstreamErrorKind = "http" | "network" | "timeout" | "parse" | "blocked" | "aborted" | "unrecorded";

/** Any failure of an upstream request; `status` is set for HTTP errors. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly kind: UpstreamErrorKind,
    readonly status?: number,
    readonly retryAfterSeconds?: number,
    /** The socket error code of a network failure (ECONNRESET …). */
    readonly code?: string,
  ) {
    super(message);
    this.name = "UpstreamError";
  }
}

/** The one HTTP client every source, the pipeline and the downloader use. */
export interface HttpClient {
  /** GET a text body; non-2xx → UpstreamError(kind "http", status). Cached and de-duplicated. */
  getText(url: string, options?: RequestOptions): Promise<TextResponse>;
  /** GET and parse JSON; a body that is not JSON → UpstreamError(kind "parse"). */
  getJson<T = unknown>(url: string, options?: RequestOptions): Promise<T>;
  /** GET a body as a stream (downloads); never cached; every redirect hop checked by the address guard. */
  stream(url: string, options?: RequestOptions): Promise<StreamResponse>;
  /** Release sockets. */
  close(): Promise<void>;
}
