import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import pRetry, { AbortError } from "p-retry";
import { Agent, type Dispatcher, request } from "undici";
import type { Config } from "../config.ts";
import { timeBox } from "../time-box.ts";
import { assertPublicUrl, BlockedAddressError, guardedLookup } from "./address-guard.ts";
import { TtlCache } from "./cache.ts";
import type { SharedCache } from "./shared-cache.ts";
import { type HttpClient, type RequestOptions, type StreamResponse, type TextResponse, UpstreamError } from "./types.ts";

export interface HttpClientOptions {
  config: Pick<Config, "userAgent" | "cacheTtlMs" | "cacheMaxEntries" | "connectTimeoutMs" | "headersTimeoutMs" | "bodyTimeoutMs" | "retries">;
  /** Replaces the network (the replay dispatcher in tests and offline runs). */
  dispatcher?: Dispatcher;
  /** DNS lookup under the address guard; tests inject answers here. */
  lookup?: LookupFunction;
  /**
   * TESTS ONLY, default false. Turns the address guard off (IP literals, redirect hops and DNS
   * answers) so a test can reach a `node:http` server on 127.0.0.1 through the real undici Agent.
   * Never set it in the service: it re-opens every SSRF hole the guard closes.
   */
  allowPrivateAddresses?: boolean;
  /**
   * The cache behind this process's own (Redis, shared by the replicas): asked on a local miss
   * before the network, filled with what the network answers. In-flight de-duplication stays in
   * the process.
   */
  shared?: SharedCache;
}

const MAX_REDIRECTS = 5;
/** A Retry-After longer than this is not waited for: the error goes back to the caller. */
const MAX_RETRY_AFTER_MS = 10_000;
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** Connection failures worth another try; a replay miss or a DNS failure is not. */
const RETRY_CODES = new Set(["ECONNRESET", "UND_ERR_SOCKET", "EPIPE", "ECONNREFUSED", "UND_ERR_CLOSED"]);

type Raw = { url: string; status: number; headers: Record<string, string>; body: Readable };

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { config } = options;
  const dispatcher =
    options.dispatcher ??
    new Agent({
      connect: {
        timeout: config.connectTimeoutMs,
        lookup: (options.allowPrivateAddresses ? options.lookup : guardedLookup(options.lookup as never)) as never,
      },
      headersTimeout: config.headersTimeoutMs,
      bodyTimeout: config.bodyTimeoutMs,
      keepAliveTimeout: 10_000,
    });
  const cache = new TtlCache<TextResponse>(config.cacheTtlMs, config.cacheMaxEntries);
  // HTTP_CACHE_TTL_MS=0 turns caching off, the shared cache's too.
  const sharedCache = config.cacheTtlMs > 0 ? options.shared : undefined;
  const inflight = new Map<string, Shared>();

  /** One GET, following redirects by hand so every hop passes the address guard. */
  async function open(url: string, opts: RequestOptions, signal: AbortSignal | undefined): Promise<Raw> {
    let current = url;
    let extraHeaders = opts.headers ?? {};
    for (let hop = 0; ; hop++) {
      try {
        if (!options.allowPrivateAddresses) assertPublicUrl(current);
      } catch (err) {
        if (err instanceof BlockedAddressError) throw new UpstreamError(err.message, current, "blocked");
        throw err;
      }
      let res: Dispatcher.ResponseData;
      try {
        res = await request(current, {
          method: "GET",
          dispatcher,
          signal,
          headers: { "user-agent": config.userAgent, accept: "*/*", ...extraHeaders },
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

  /** Runs `attempt` with bounded retries of transient failures, honouring Retry-After. */
  async function withRetries<T>(url: string, attempt: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    try {
      return await pRetry(
        async () => {
          try {
            return await attempt();
          } catch (err) {
            if (err instanceof UpstreamError && isTransient(err)) throw err;
            throw new AbortError(err as Error);
          }
        },
        {
          retries: config.retries,
          minTimeout: 200,
          factor: 2,
          signal,
          onFailedAttempt: async ({ error, retriesLeft }) => {
            const wait = (error as UpstreamError).retryAfterSeconds;
            // No retry left: nothing to wait for, the error goes back now.
            if (wait === undefined || retriesLeft === 0) return;
            if (wait * 1000 > MAX_RETRY_AFTER_MS) throw error;
            await sleep(wait * 1000, signal);
          },
        },
      );
    } catch (err) {
      // p-retry rejects with the signal's reason (a DOMException) when the deadline or the caller
      // ends a back-off or Retry-After wait; callers only ever see UpstreamError.
      throw toUpstreamError(err, url, signal);
    }
  }

  async function fetchText(url: string, opts: RequestOptions): Promise<TextResponse> {
    const signal = deadline(opts);
    return withRetries(
      url,
      async () => {
        const raw = await open(url, opts, signal);
        try {
          const text = await readText(raw.body);
          return { url: raw.url, status: raw.status, headers: raw.headers, text };
        } catch (err) {
          throw toUpstreamError(err, raw.url, signal);
        }
      },
      signal,
    );
  }

  /** A local miss: the shared cache's entry (kept here for the time it has left), else the network's answer, kept in both. */
  async function fetchCached(key: string, url: string, opts: RequestOptions): Promise<TextResponse> {
    // Without a shared cache the request starts at once, in this tick, as it always did.
    const stored = sharedCache && (await sharedCache.get(key));
    if (stored) {
      cache.set(key, stored.response, stored.ttlMs);
      return stored.response;
    }
    const res = await fetchText(url, opts);
    cache.set(key, res);
    // Awaited: once this replica has answered, another one asking finds the response.
    await sharedCache?.set(key, res, config.cacheTtlMs);
    return res;
  }

  const client: HttpClient = {
    async getText(url, opts = {}) {
      const useCache = opts.cache !== false;
      const key = `${url} ${JSON.stringify(opts.headers ?? {})}`;
      if (!useCache) return fetchText(url, opts);
      const hit = cache.get(key);
      if (hit) return hit;
      let shared = inflight.get(key);
      if (!shared) {
        // The shared request runs on its own signal: each caller's signal and timeout only end its own wait.
        const controller = new AbortController();
        const forget = () => {
          if (inflight.get(key) === shared) inflight.delete(key);
        };
        const promise = fetchCached(key, url, { ...(opts.headers ? { headers: opts.headers } : {}), signal: controller.signal }).then(
          (res) => {
            forget();
            return res;
          },
          (err: unknown) => {
            forget();
            throw err;
          },
        );
        shared = {
          promise,
          callers: 0,
          abandon: () => {
            forget();
            controller.abort();
          },
        };
        inflight.set(key, shared);
      }
      return join(shared, url, deadline(opts));
    },

    async getJson<T>(url: string, opts: RequestOptions = {}): Promise<T> {
      const res = await client.getText(url, { ...opts, headers: { accept: "application/json", ...opts.headers } });
      try {
        return JSON.parse(res.text) as T;
      } catch {
        throw new UpstreamError(`${url} did not answer valid JSON`, url, "parse", res.status);
      }
    },

    async stream(url, opts = {}): Promise<StreamResponse> {
      const signal = deadline(opts);
      const raw = await withRetries(url, () => open(url, opts, signal), signal);
      const length = Number(raw.headers["content-length"]);
      return { ...raw, ...(Number.isFinite(length) && raw.headers["content-length"] ? { sizeBytes: length } : {}) };
    },

    async close() {
      await dispatcher.close();
    },
  };
  return client;
}

/** One upstream GET shared by every identical concurrent call. */
interface Shared {
  promise: Promise<TextResponse>;
  /** Callers still waiting; when the last one gives up, the request is abandoned. */
  callers: number;
  abandon(): void;
}

/** Waits for a shared request until it settles or this caller's signal ends the wait. */
function join(shared: Shared, url: string, signal: AbortSignal | undefined): Promise<TextResponse> {
  shared.callers++;
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      signal?.removeEventListener("abort", onAbort);
      shared.callers--;
      settle();
    };
    const onAbort = () =>
      finish(() => {
        if (shared.callers === 0) shared.abandon();
        reject(toUpstreamError(signal?.reason, url, signal));
      });
    // Listening first: an abandoned request's rejection is then always handled.
    shared.promise.then(
      (res) => finish(() => resolve(res)),
      (err: unknown) => finish(() => reject(err)),
    );
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The caller's signal combined with the per-call deadline (a timer that fires even after a GC; see core/time-box.ts). */
function deadline(opts: RequestOptions): AbortSignal | undefined {
  return opts.timeoutMs ? timeBox(opts.timeoutMs, opts.signal).signal : opts.signal;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const CREDENTIAL_HEADERS = new Set(["authorization", "proxy-authorization", "cookie"]);

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())));
}

function isTransient(err: UpstreamError): boolean {
  if (err.kind === "http") return err.status !== undefined && RETRY_STATUSES.has(err.status);
  return err.kind === "network" && err.code !== undefined && RETRY_CODES.has(err.code);
}

function toUpstreamError(err: unknown, url: string, signal: AbortSignal | undefined): UpstreamError {
  if (err instanceof UpstreamError) return err;
  const e = err as Error & { code?: string; cause?: { code?: string } };
  if (e instanceof BlockedAddressError || e?.cause instanceof BlockedAddressError) {
    return new UpstreamError((e instanceof BlockedAddressError ? e : (e.cause as Error)).message, url, "blocked");
  }
  if (signal?.aborted) {
    const timedOut = (signal.reason as Error | undefined)?.name === "TimeoutError";
    return new UpstreamError(timedOut ? `${url} timed out` : `request to ${url} was aborted`, url, timedOut ? "timeout" : "aborted");
  }
  const code = e?.code ?? e?.cause?.code ?? "";
  if (/TIMEOUT/.test(code)) return new UpstreamError(`${url} timed out (${code})`, url, "timeout");
  if (e?.name === "ReplayMissError") return new UpstreamError(`${url} failed: ${e.message}`, url, "unrecorded");
  return new UpstreamError(`${url} failed: ${e?.message ?? String(err)}`, url, "network", undefined, undefined, code);
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

async function readText(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
