import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { Agent, type Dispatcher } from "undici";
import type { Config } from "../config.ts";
import { timeBox } from "../time-box.ts";
import { guardedLookup } from "./address-guard.ts";
import { TtlCache } from "./cache.ts";
import { type HopOptions, openFollowing } from "./hops.ts";
import { Inflight } from "./inflight.ts";
import { withRetries } from "./retries.ts";
import type { SharedCache } from "./shared-cache.ts";
import { type HttpClient, type RequestOptions, type StreamResponse, type TextResponse, UpstreamError } from "./types.ts";
import { toUpstreamError } from "./upstream-error.ts";

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

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { config } = options;
  const dispatcher = options.dispatcher ?? networkAgent(options);
  const cache = new TtlCache<TextResponse>(config.cacheTtlMs, config.cacheMaxEntries);
  // HTTP_CACHE_TTL_MS=0 turns caching off, the shared cache's too.
  const sharedCache = config.cacheTtlMs > 0 ? options.shared : undefined;
  const inflight = new Inflight<TextResponse>();

  const hops: HopOptions = { dispatcher, userAgent: config.userAgent, ...(options.allowPrivateAddresses ? { allowPrivateAddresses: true } : {}) };
  const open = (url: string, opts: RequestOptions, signal: AbortSignal | undefined) => openFollowing(url, opts, signal, hops);

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
      config.retries,
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
      const headers = opts.headers ? { headers: opts.headers } : {};
      return inflight.join(key, url, (signal) => fetchCached(key, url, { ...headers, signal }), deadline(opts));
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
      const raw = await withRetries(url, () => open(url, opts, signal), config.retries, signal);
      const length = Number(raw.headers["content-length"]);
      return { ...raw, ...(Number.isFinite(length) && raw.headers["content-length"] ? { sizeBytes: length } : {}) };
    },

    async close() {
      await dispatcher.close();
    },
  };
  return client;
}

/** The network, with the config's timeouts and every DNS answer under the address guard. */
function networkAgent({ config, lookup, allowPrivateAddresses }: HttpClientOptions): Agent {
  return new Agent({
    connect: { timeout: config.connectTimeoutMs, lookup: (allowPrivateAddresses ? lookup : guardedLookup(lookup as never)) as never },
    headersTimeout: config.headersTimeoutMs,
    bodyTimeout: config.bodyTimeoutMs,
    keepAliveTimeout: 10_000,
  });
}

/** The caller's signal combined with the per-call deadline (a timer that fires even after a GC; see core/time-box.ts). */
function deadline(opts: RequestOptions): AbortSignal | undefined {
  return opts.timeoutMs ? timeBox(opts.timeoutMs, opts.signal).signal : opts.signal;
}

async function readText(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
