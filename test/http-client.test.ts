import { createServer, type RequestListener } from "node:http";
import type { AddressInfo, LookupFunction } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../core/config.ts";
import { createHttpClient } from "../core/http/client.ts";
import { ReplayDispatcher } from "../core/http/replay.ts";
import { type HttpClient, UpstreamError } from "../core/http/types.ts";
import { useFakeTime, whenTrue, withoutTime } from "./helpers/fake-time.ts";
import { exposedGc } from "./helpers/gc.ts";

// Every test here goes through the real client (createHttpClient). Most are answered by the replay
// dispatcher from scripted entries with small inline bodies (synthetic, made for these tests); the
// Agent-timeout and DNS-guard tests use the real undici Agent against a node:http server on
// 127.0.0.1 or a fake `lookup`, so nothing reaches the network.

const clients: HttpClient[] = [];
const servers: LocalServer[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A client answered by a fresh replay dispatcher; retries on (2) unless `env` says otherwise. */
function replayClient(env: Record<string, string> = {}) {
  const replay = new ReplayDispatcher({ record: true });
  const http = createHttpClient({ config: loadConfig({ HTTP_RETRIES: "2", ...env }), dispatcher: replay });
  clients.push(http);
  return { replay, http };
}

/** What the promise rejected with; fails the test when it is not an UpstreamError. */
async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(UpstreamError);
    return err as UpstreamError;
  }
  throw new Error("expected a rejection");
}

const A = "https://a.example/";

describe("headers sent upstream", () => {
  it("sends the default User-Agent, which names the project and its homepage", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, body: "ok" });
    await http.getText(A);
    const ua = replay.log[0]?.headers["user-agent"] ?? "";
    expect(ua).toMatch(/^asset-search\//);
    expect(ua).toContain("https://github.com/asset-search/asset-search");
  });

  it("sends USER_AGENT from the config, on every redirect hop too", async () => {
    const { replay, http } = replayClient({ USER_AGENT: "custom-agent/9 (+https://example.org)" });
    replay.add({ url: A, status: 302, headers: { location: "https://b.example/x" } });
    replay.add({ url: "https://b.example/x", body: "ok" });
    await http.getText(A);
    expect(replay.log.map((r) => r.headers["user-agent"])).toEqual(["custom-agent/9 (+https://example.org)", "custom-agent/9 (+https://example.org)"]);
  });

  it("getJson asks for JSON and parses it; a body that is not JSON is kind parse", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, body: '{"n":1}' });
    replay.add({ url: "https://a.example/bad", body: "<html>" });
    expect(await http.getJson(A)).toEqual({ n: 1 });
    expect(replay.log[0]?.headers.accept).toBe("application/json");
    const err = await failure(http.getJson("https://a.example/bad"));
    expect(err.kind).toBe("parse");
  });

  it("does not forward Authorization or Cookie to another origin on redirect", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, status: 302, headers: { location: "/same" } });
    replay.add({ url: "https://a.example/same", status: 302, headers: { location: "https://cdn.example/f" } });
    replay.add({ url: "https://cdn.example/f", body: "file" });
    await http.getText(A, { headers: { Authorization: "Token secret", cookie: "s=1", "x-keep": "1" } });
    const [first, same, other] = replay.log;
    expect(first?.headers.authorization).toBe("Token secret");
    expect(same?.headers.authorization).toBe("Token secret");
    expect(other?.headers.authorization).toBeUndefined();
    expect(other?.headers.cookie).toBeUndefined();
    expect(other?.headers["x-keep"]).toBe("1");
  });
});

describe("response cache", () => {
  it("answers a second identical GET from the cache", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, body: "cached" });
    const first = await http.getText(A);
    const second = await http.getText(A);
    expect(second.text).toBe("cached");
    expect(second).toEqual(first);
    expect(replay.requested).toEqual([A]);
  });

  it("forgets an entry after HTTP_CACHE_TTL_MS", async () => {
    useFakeTime();
    const { replay, http } = replayClient({ HTTP_CACHE_TTL_MS: "150" });
    replay.add({ url: A, body: "v1" });
    await http.getText(A);
    replay.add({ url: A, body: "v2" });
    vi.advanceTimersByTime(149);
    expect((await http.getText(A)).text).toBe("v1");
    expect(replay.requested).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect((await http.getText(A)).text).toBe("v2");
    expect(replay.requested).toHaveLength(2);
  });

  it("keeps at most HTTP_CACHE_MAX_ENTRIES responses, dropping the oldest", async () => {
    const { replay, http } = replayClient({ HTTP_CACHE_MAX_ENTRIES: "2" });
    const urls = ["https://a.example/1", "https://a.example/2", "https://a.example/3"];
    for (const url of urls) replay.add({ url, body: url });
    for (const url of urls) await http.getText(url);
    await http.getText(urls[2]!); // still cached
    await http.getText(urls[1]!); // still cached
    expect(replay.requested).toHaveLength(3);
    await http.getText(urls[0]!); // evicted: asked again
    expect(replay.requested).toEqual([...urls, urls[0]]);
  });

  it("does not cache with cache: false, failures, or stream()", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, body: "x" });
    replay.add({ url: "https://a.example/404", status: 404 });
    await http.getText(A, { cache: false });
    await http.getText(A, { cache: false });
    await failure(http.getText("https://a.example/404"));
    await failure(http.getText("https://a.example/404"));
    (await http.stream(A)).body.resume();
    (await http.stream(A)).body.resume();
    expect(replay.requested).toHaveLength(6);
  });

  it("shares one upstream request between identical concurrent GETs", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, body: '{"shared":true}', delayMs: 50 });
    const [a, b, c] = await Promise.all([http.getText(A), http.getText(A), http.getText(A)]);
    expect(replay.requested).toEqual([A]);
    expect(a.text).toBe('{"shared":true}');
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  it("a caller that gives up does not fail the others sharing its request", async () => {
    useFakeTime();
    const { replay, http } = replayClient();
    replay.add({ url: A, body: '{"shared":true}', delayMs: 150 });
    const impatient = new AbortController();
    const first = failure(http.getText(A, { signal: impatient.signal }));
    const hasty = failure(http.getText(A, { timeoutMs: 30 }));
    const patient = http.getText(A);
    await whenTrue("the shared request to be asked", () => replay.requested.length === 1);
    impatient.abort();
    expect((await first).kind).toBe("aborted");
    await vi.advanceTimersByTimeAsync(30);
    expect((await hasty).kind).toBe("timeout");
    await vi.advanceTimersByTimeAsync(120);
    expect((await patient).text).toBe('{"shared":true}');
    expect(replay.requested).toEqual([A]);
  });

  it("aborts the shared request once every caller has gone, and the next caller asks again", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, fault: "hang", times: 1 });
    replay.add({ url: A, body: "again" });
    const callers = [new AbortController(), new AbortController()];
    const waits = callers.map((c) => http.getText(A, { signal: c.signal }));
    for (const c of callers) c.abort();
    for (const wait of waits) expect((await failure(wait)).kind).toBe("aborted");
    expect((await http.getText(A)).text).toBe("again");
    expect(replay.requested).toEqual([A, A]);
  });

  it("does not share requests whose headers differ", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, body: "{}", delayMs: 20 });
    await Promise.all([http.getText(A), http.getJson(A)]);
    expect(replay.requested).toHaveLength(2);
  });
});

describe("retries", () => {
  it("retries a GET answered 429, 502, 503 or 504, then succeeds", async () => {
    const { replay, http } = replayClient();
    const statuses = [429, 502, 503, 504];
    for (const status of statuses) {
      replay.add({ url: `${A}${status}`, status, times: 1 });
      replay.add({ url: `${A}${status}`, body: `fine after ${status}` });
    }
    // Side by side, so the four back-offs overlap.
    const texts = await Promise.all(statuses.map(async (status) => (await http.getText(`${A}${status}`)).text));
    expect(texts).toEqual(statuses.map((status) => `fine after ${status}`));
    for (const status of statuses) expect(replay.requested.filter((u) => u === `${A}${status}`)).toHaveLength(2);
  });

  it("gives up after HTTP_RETRIES retries with the HTTP error", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, status: 503 });
    const err = await failure(http.getText(A));
    expect(err).toMatchObject({ kind: "http", status: 503, url: A });
    expect(replay.requested).toEqual([A, A, A]);
  });

  it("does not retry when HTTP_RETRIES is 0", async () => {
    const { replay, http } = replayClient({ HTTP_RETRIES: "0" });
    replay.add({ url: A, status: 503 });
    await failure(http.getText(A));
    expect(replay.requested).toEqual([A]);
  });

  it.each([400, 404, 500])("does not retry HTTP %i", async (status) => {
    const { replay, http } = replayClient();
    replay.add({ url: A, status });
    const err = await failure(http.getText(A));
    expect(err).toMatchObject({ kind: "http", status });
    expect(replay.requested).toEqual([A]);
  });

  it("waits Retry-After seconds before the retry, then the back-off", async () => {
    useFakeTime();
    const { replay, http } = replayClient();
    replay.add({ url: A, status: 429, headers: { "retry-after": "1" }, times: 1 });
    replay.add({ url: A, body: "after the wait" });
    const call = http.getText(A);
    await whenTrue("the Retry-After wait to begin", () => vi.getTimerCount() === 1);
    // The retry comes 1 s (Retry-After) and then 200 ms (the first back-off) after the answer.
    await vi.advanceTimersByTimeAsync(1199);
    expect(replay.requested).toEqual([A]);
    await vi.advanceTimersByTimeAsync(1);
    expect(replay.requested).toEqual([A, A]);
    expect((await call).text).toBe("after the wait");
  });

  it.each([
    ["seconds", "60", 60],
    ["an HTTP date", "Sun, 22 Nov 2026 00:02:00 GMT", 120],
  ])("fails at once when Retry-After (%s) is longer than the cap", async (_form, value, seconds) => {
    useFakeTime();
    vi.setSystemTime(new Date("2026-11-22T00:00:00Z"));
    const { replay, http } = replayClient();
    replay.add({ url: A, status: 429, headers: { "retry-after": value } });
    const err = await withoutTime("the call to fail", failure(http.getText(A)));
    expect(err).toMatchObject({ kind: "http", status: 429, retryAfterSeconds: seconds });
    expect(replay.requested).toEqual([A]);
  });

  it("does not wait Retry-After when no retry is left", async () => {
    useFakeTime();
    const { replay, http } = replayClient({ HTTP_RETRIES: "0" });
    replay.add({ url: A, status: 503, headers: { "retry-after": "2" } });
    const err = await withoutTime("the call to fail", failure(http.getText(A)));
    expect(err).toMatchObject({ kind: "http", status: 503, retryAfterSeconds: 2 });
  });

  it("a deadline that passes during a Retry-After wait ends the call at the deadline, as kind timeout", async () => {
    useFakeTime();
    const { replay, http } = replayClient();
    replay.add({ url: A, status: 429, headers: { "retry-after": "3" } });
    let settled = false;
    const call = failure(http.getText(A, { timeoutMs: 300 })).finally(() => (settled = true));
    await whenTrue("the Retry-After wait to begin", () => vi.getTimerCount() === 2); // the deadline's timer and the wait's
    await vi.advanceTimersByTimeAsync(299);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call).toMatchObject({ kind: "timeout", url: A });
    expect(replay.requested).toEqual([A]);
  });

  it("a deadline that passes during the back-off is an UpstreamError of kind timeout", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, status: 503 });
    const err = await failure(http.getText(A, { timeoutMs: 100 }));
    expect(err).toMatchObject({ kind: "timeout", url: A });
    expect(replay.requested).toEqual([A]);
  });

  it("the caller aborting during the back-off is an UpstreamError of kind aborted", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, status: 503 });
    const err = await failure(http.getText(A, { signal: AbortSignal.abort() }));
    expect(err).toMatchObject({ kind: "aborted", url: A });
    useFakeTime();
    const controller = new AbortController();
    const streamed = failure(http.stream(A, { signal: controller.signal }));
    await whenTrue("the back-off to begin", () => vi.getTimerCount() === 1);
    controller.abort();
    expect(await streamed).toMatchObject({ kind: "aborted", url: A });
  });

  it("retries a connection reset, then fails with kind network", async () => {
    const { replay, http } = replayClient({ HTTP_RETRIES: "1" });
    replay.add({ url: A, fault: "reset" });
    const err = await failure(http.getText(A));
    expect(err).toMatchObject({ kind: "network", code: "ECONNRESET", url: A });
    expect(replay.requested).toEqual([A, A]);
  });

  it("a reset followed by an answer succeeds", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, fault: "reset", times: 1 });
    replay.add({ url: A, body: "second try" });
    expect((await http.getText(A)).text).toBe("second try");
    expect(replay.requested).toEqual([A, A]);
  });

  it("a hanging upstream ends at timeoutMs with kind timeout, not retried", async () => {
    useFakeTime();
    const { replay, http } = replayClient();
    replay.add({ url: A, fault: "hang" });
    let settled = false;
    const call = failure(http.getText(A, { timeoutMs: 150 })).finally(() => (settled = true));
    await whenTrue("the request to be asked", () => replay.requested.length === 1);
    await vi.advanceTimersByTimeAsync(149);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call).toMatchObject({ kind: "timeout", url: A });
    expect(replay.requested).toEqual([A]);
  });

  // Fails with AbortSignal.any([signal, AbortSignal.timeout(ms)]): a collection drops the timeout
  // signal (held only weakly by its timer) and the call hangs, here until the test's own timeout
  // (real timers: their collection is the point).
  it("timeoutMs with a caller's signal still fires when a garbage collection runs meanwhile", async () => {
    const gc = exposedGc();
    const { replay, http } = replayClient();
    replay.add({ url: A, fault: "hang" });
    const caller = new AbortController();
    const call = failure(http.getText(A, { timeoutMs: 150, signal: caller.signal, cache: false }));
    await whenTrue("the request to be asked", () => replay.requested.length === 1);
    gc();
    expect(await call).toMatchObject({ kind: "timeout", url: A });
  });

  it("a truncated body is an error (kind network)", async () => {
    const { replay, http } = replayClient({ HTTP_RETRIES: "0" });
    replay.add({ url: A, body: "0123456789", fault: "truncate" });
    const err = await failure(http.getText(A));
    expect(err.kind).toBe("network");
  });

  it("an unrecorded URL fails as an unrecorded error naming it, without retries", async () => {
    const { replay, http } = replayClient();
    const url = "https://a.example/never-recorded?q=1";
    const err = await failure(http.getText(url));
    expect(err.kind).toBe("unrecorded");
    expect(err.message).toContain(url);
    expect(replay.requested).toEqual([url]);
  });
});

describe("address guard", () => {
  it.each([
    "http://127.0.0.1/",
    "http://[::ffff:127.0.0.1]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.5/",
    "http://localhost:8080/",
    "file:///etc/passwd",
  ])("refuses a redirect to %s (getText and stream)", async (target) => {
    const { replay, http } = replayClient();
    replay.add({ url: A, status: 302, headers: { location: target } });
    const err = await failure(http.getText(A));
    expect(err.kind).toBe("blocked");
    expect(err.url).toBe(new URL(target).href);
    const err2 = await failure(http.stream(A));
    expect(err2.kind).toBe("blocked");
    expect(replay.requested).toEqual([A, A]); // the blocked hop never reached the dispatcher
  });

  it("refuses a redirect to a blocked address on a later hop", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, status: 301, headers: { location: "https://b.example/" } });
    replay.add({ url: "https://b.example/", status: 307, headers: { location: "http://[::1]:9000/admin" } });
    const err = await failure(http.getText(A));
    expect(err.kind).toBe("blocked");
    expect(replay.requested).toEqual([A, "https://b.example/"]);
  });

  it.each([
    "http://2130706433/",
    "http://0x7f000001/",
    "http://127.1/",
    "http://[::1]/",
    "http://[::ffff:7f00:1]/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
    "http://224.0.0.1/",
    "http://[fe80::1]/",
    "http://169.254.169.254/",
  ])("refuses the first URL %s before any request", async (url) => {
    const { replay, http } = replayClient();
    const err = await failure(http.getText(url));
    expect(err.kind).toBe("blocked");
    expect(replay.requested).toEqual([]);
  });

  it("follows redirects to public addresses, relative ones included, and reports the final URL", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, status: 302, headers: { location: "/next" } });
    replay.add({ url: "https://a.example/next", status: 303, headers: { location: "https://b.example/end" } });
    replay.add({ url: "https://b.example/end", body: "end" });
    const res = await http.getText(A);
    expect(res).toMatchObject({ url: "https://b.example/end", status: 200, text: "end" });
  });

  it("stops after too many redirects", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, status: 302, headers: { location: A } });
    const err = await failure(http.getText(A));
    expect(err).toMatchObject({ kind: "http", status: 302 });
    expect(replay.requested.length).toBe(6);
  });

  it("an unparsable Location is an UpstreamError of kind http", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, status: 302, headers: { location: "http://[oops/" } });
    const err = await failure(http.getText(A));
    expect(err).toMatchObject({ kind: "http", status: 302, url: A });
  });

  it("refuses a hostname whose DNS answer is private, without connecting (real Agent)", async () => {
    const asked: string[] = [];
    const lookup = ((hostname: string, _opts: unknown, cb: (...args: unknown[]) => void) => {
      asked.push(hostname);
      cb(null, [{ address: "10.0.0.5", family: 4 }]);
    }) as unknown as LookupFunction;
    const http = createHttpClient({ config: loadConfig({ HTTP_RETRIES: "2" }), lookup });
    clients.push(http);
    const err = await failure(http.getText("http://assets.example.test/x.json"));
    expect(err.kind).toBe("blocked");
    expect(err.message).toContain("10.0.0.5");
    expect(asked).toEqual(["assets.example.test"]); // one lookup: not retried
  });

  it("a DNS answer of 127.0.0.1 never reaches the server listening there", async () => {
    const server = await localServer((_req, res) => res.end("secret"));
    const lookup = ((_h: string, _o: unknown, cb: (...args: unknown[]) => void) =>
      cb(null, [{ address: "127.0.0.1", family: 4 }])) as unknown as LookupFunction;
    const url = `http://internal.example.test:${server.port}/`;

    const guarded = createHttpClient({ config: loadConfig({}), lookup });
    clients.push(guarded);
    const err = await failure(guarded.getText(url));
    expect(err.kind).toBe("blocked");
    expect(err.message).toContain("loopback");
    expect(server.connections).toBe(0);

    // Control: the same request with the guard off does reach it, so the 0 above is the guard's doing.
    const open = createHttpClient({ config: loadConfig({}), lookup, allowPrivateAddresses: true });
    clients.push(open);
    expect((await open.getText(url)).text).toBe("secret");
    expect(server.connections).toBe(1);
  });
});

describe("stream()", () => {
  const big = "0123456789abcdef".repeat(4096 * 64); // 4 MiB: 64 chunks of the replay's 64 KiB

  it("streams the body, with sizeBytes from content-length", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, body: big, headers: { "content-type": "model/gltf-binary" } });
    const res = await http.stream(A);
    expect(res).toMatchObject({ url: A, status: 200, sizeBytes: big.length });
    expect(res.headers["content-type"]).toBe("model/gltf-binary");
    let received = "";
    let chunks = 0;
    for await (const chunk of res.body) {
      received += String(chunk);
      chunks++;
    }
    expect(received).toBe(big);
    expect(chunks).toBeGreaterThan(1);
  });

  it("stops mid-body when the caller aborts", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, body: big });
    const controller = new AbortController();
    const res = await http.stream(A, { signal: controller.signal });
    let received = 0;
    const read = async () => {
      for await (const chunk of res.body) {
        received += (chunk as Buffer).length;
        controller.abort();
      }
    };
    await expect(read()).rejects.toThrow();
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(big.length);
    expect(res.body.destroyed).toBe(true);
  });

  it("fails like getText on HTTP errors and hangs", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, status: 404 });
    replay.add({ url: "https://a.example/hang", fault: "hang" });
    expect(await failure(http.stream(A))).toMatchObject({ kind: "http", status: 404 });
    expect(await failure(http.stream("https://a.example/hang", { timeoutMs: 100 }))).toMatchObject({ kind: "timeout" });
  });

  it("a truncated download errors the body stream", async () => {
    const { replay, http } = replayClient();
    replay.add({ url: A, body: big, fault: "truncate" });
    const res = await http.stream(A);
    expect(res.sizeBytes).toBe(big.length);
    let received = 0;
    const read = async () => {
      for await (const chunk of res.body) received += (chunk as Buffer).length;
    };
    await expect(read()).rejects.toThrow();
    expect(received).toBe(big.length / 2);
  });
});

interface LocalServer {
  port: number;
  url: string;
  /** TCP connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 (reached only with allowPrivateAddresses or a test lookup). */
async function localServer(handler: RequestListener): Promise<LocalServer> {
  const server = createServer(handler);
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const local: LocalServer = {
    port,
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  servers.push(local);
  return local;
}

describe("undici Agent: keep-alive and separate connect / headers / body timeouts", () => {
  // headers 500 ms, body (idle between chunks) 300 ms: both far shorter than the slow download below.
  const env = {
    HTTP_RETRIES: "0",
    HTTP_CONNECT_TIMEOUT_MS: "200",
    HTTP_HEADERS_TIMEOUT_MS: "500",
    HTTP_BODY_TIMEOUT_MS: "300",
  };
  const agentClient = (lookup?: LookupFunction) => {
    const client = createHttpClient({ config: loadConfig(env), allowPrivateAddresses: true, ...(lookup ? { lookup } : {}) });
    clients.push(client);
    return client;
  };

  /** Sends `count` chunks, one every `everyMs`, after immediate headers; `stallAfter` chunks then silence. */
  function dripServer(opts: { count: number; everyMs: number; stallAfter?: number; headersAfterMs?: number }) {
    return localServer((_req, res) => {
      let sent = 0;
      let timer: NodeJS.Timeout | undefined;
      res.on("close", () => clearTimeout(timer));
      const tick = () => {
        if (opts.stallAfter !== undefined && sent >= opts.stallAfter) return; // silence, connection open
        if (sent === opts.count) return void res.end();
        res.write(`chunk${sent++};`);
        timer = setTimeout(tick, opts.everyMs);
      };
      timer = setTimeout(() => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.flushHeaders();
        tick();
      }, opts.headersAfterMs ?? 0);
    });
  }

  // The server's timers make the body last over 1 s (5 gaps of 200 ms), past the headers timeout.
  it("a slow body (a chunk every 200 ms for 1.2 s) is cut neither by the 500 ms headers nor the 300 ms body timeout", async () => {
    const server = await dripServer({ count: 6, everyMs: 200 });
    const http = agentClient();
    const res = await http.stream(`${server.url}/slow.bin`);
    let text = "";
    for await (const chunk of res.body) text += String(chunk);
    expect(text).toBe("chunk0;chunk1;chunk2;chunk3;chunk4;chunk5;");
    expect(res.sizeBytes).toBeUndefined(); // chunked: no content-length announced
  });

  it("a body that stalls longer than the body timeout is cut", async () => {
    const server = await dripServer({ count: 6, everyMs: 50, stallAfter: 2 });
    const http = agentClient();
    let text = "";
    const download = async () => {
      const res = await http.stream(`${server.url}/stall.bin`);
      for await (const chunk of res.body) text += String(chunk);
    };
    // The download (stream) and a getText, side by side to keep the test short.
    const [streamed, err] = await Promise.all([
      download().then(
        () => undefined,
        (e: unknown) => e,
      ),
      failure(http.getText(`${server.url}/stall.txt`)),
    ]);
    expect(streamed).toMatchObject({ code: "UND_ERR_BODY_TIMEOUT" });
    expect(text).toBe("chunk0;chunk1;");
    expect(err.kind).toBe("timeout");
    expect(err.message).toContain("UND_ERR_BODY_TIMEOUT");
  });

  it("headers later than the headers timeout are cut", async () => {
    const server = await dripServer({ count: 1, everyMs: 10, headersAfterMs: 3000 });
    const http = agentClient();
    const err = await failure(http.getText(`${server.url}/late`));
    expect(err.kind).toBe("timeout");
    expect(err.message).toContain("UND_ERR_HEADERS_TIMEOUT");
  });

  it("a connect that does not complete is cut by the connect timeout", async () => {
    // A lookup that never answers: the socket never connects, and nothing leaves the machine.
    const lookup = (() => {}) as unknown as LookupFunction;
    const http = agentClient(lookup);
    const err = await failure(http.getText("http://never-resolves.example.test/"));
    expect(err.kind).toBe("timeout");
    expect(err.message).toContain("UND_ERR_CONNECT_TIMEOUT");
  });

  it("keeps the connection alive between requests", async () => {
    let requests = 0;
    const server = await localServer((_req, res) => {
      requests++;
      res.end("ok");
    });
    const http = agentClient();
    for (let i = 0; i < 5; i++) await http.getText(`${server.url}/${i}`);
    const res = await http.stream(`${server.url}/stream`);
    for await (const _ of res.body);
    expect(requests).toBe(6);
    // Without keep-alive: 6. undici's pool may open a second socket when a request follows the
    // previous one within the same tick, before the first socket is back in the pool.
    expect(server.connections).toBeLessThanOrEqual(2);
  });
});
