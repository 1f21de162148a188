import type { Readable } from "node:stream";
import { type Dispatcher, request } from "undici";
import { assertPublicUrl, BlockedAddressError } from "./address-guard.ts";
import { type RequestOptions, UpstreamError } from "./types.ts";
import { toUpstreamError } from "./upstream-error.ts";

const MAX_REDIRECTS = 5;
const CREDENTIAL_HEADERS = new Set(["authorization", "proxy-authorization", "cookie"]);

/** An answered GET before its body is read. */
export type RawResponse = { url: string; status: number; headers: Record<string, string>; body: Readable };

export interface HopOptions {
  dispatcher: Dispatcher;
  userAgent: string;
  /** TESTS ONLY: no address guard (core/http/client.ts allowPrivateAddresses). */
  allowPrivateAddresses?: boolean;
}

/** One GET, following redirects by hand so every hop passes the address guard. */
export async function openFollowing(url: string, opts: RequestOptions, signal: AbortSignal | undefined, hops: HopOptions): Promise<RawResponse> {
  let current = url;
  let extraHeaders = opts.headers ?? {};
  for (let hop = 0; ; hop++) {
    try {
      if (!hops.allowPrivateAddresses) assertPublicUrl(current);
    } catch (err) {
      if (err instanceof BlockedAddressError) throw new UpstreamError(err.message, current, "blocked");
      throw err;
    }
    let res: Dispatcher.ResponseData;
    try {
      res = await request(current, {
        method: "GET",
        dispatcher: hops.dispatcher,
        signal,
        headers: { "user-agent": hops.userAgent, accept: "*/*", ...extraHeaders },
      });
    } catch (err) {
      throw toUpstreamError(err, current, signal);
    }
    const headers = flatHeaders(res.headers);
    if (res.statusCode >= 300 && res.statusCode < 400 && headers.location) {
      res.body.resume();
      if (hop >= MAX_REDIRECTS) throw new UpstreamError(`too many redirects from ${url}`, current, "http", res.statusCode);
      let next: URL;
      try {
        next = new URL(headers.location, current);
      } catch {
        throw new UpstreamError(`${current} redirected to an invalid URL: ${headers.location}`, current, "http", res.statusCode);
      }
      // A key or session for one site must not follow a redirect to another.
      if (next.origin !== new URL(current).origin) extraHeaders = withoutCredentials(extraHeaders);
      current = next.href;
      continue;
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      res.body.resume();
      const retryAfter = parseRetryAfter(headers["retry-after"]);
      throw new UpstreamError(`${current} answered HTTP ${res.statusCode}`, current, "http", res.statusCode, retryAfter);
    }
    return { url: current, status: res.statusCode, headers, body: res.body };
  }
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())));
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

function parseRetryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
