import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../core/config.ts";
import { createHttpClient } from "../core/http/client.ts";
import { ReplayDispatcher, ReplayMissError } from "../core/http/replay.ts";
import { type HttpClient, UpstreamError } from "../core/http/types.ts";
import { createRuntime } from "../core/model/runtime.ts";
import { useFakeTime, whenTrue, withoutTime } from "./helpers/fake-time.ts";
import { FIXTURES } from "./helpers/replay.ts";

// The replay dispatcher, always driven through the real HTTP client. Bodies written here (inline
// `body` entries, and the manifests made in a temporary folder) are synthetic, made for these tests.

const clients: HttpClient[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function clientOver(replay: ReplayDispatcher, env: Record<string, string> = {}): HttpClient {
  const http = createHttpClient({ config: loadConfig({ HTTP_RETRIES: "0", ...env }), dispatcher: replay });
  clients.push(http);
  return http;
}

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(UpstreamError);
    return err as UpstreamError;
  }
  throw new Error("expected a rejection");
}

async function bytesOf(http: HttpClient, url: string): Promise<Buffer> {
  const res = await http.stream(url);
  const chunks: Buffer[] = [];
  for await (const chunk of res.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const A = "https://a.example/x";

describe("manifests", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "replay-test-"));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    write("a-site/body.json", '{"from":"a-site"}');
    write(
      "a-site/manifest.json",
      JSON.stringify({
        note: "synthetic, for replay.test.ts",
        entries: [
          { url: "https://a.example/api?q=1", file: "body.json", headers: { "Content-Type": "application/json" } },
          { url: "https://shared.example/", body: "first manifest" },
          { url: "https://a.example/gone", status: 410 },
        ],
      }),
    );
    write(
      "b-site/deeper/manifest.json",
      JSON.stringify({
        entries: [
          { method: "GET", url: "https://b.example/file.bin", file: "../data/file.bin" },
          { url: "https://shared.example/", body: "later manifest" },
        ],
      }),
    );
    write("b-site/data/file.bin", "binary-ish \u0000 bytes");
    write("b-site/not-a-manifest.json", '{"entries": "ignored"}');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("loads every manifest.json below the folder; files are relative to their manifest", async () => {
    const replay = ReplayDispatcher.fromDirectory(dir);
    const http = clientOver(replay);
    const api = await http.getText("https://a.example/api?q=1");
    expect(api).toMatchObject({ status: 200, text: '{"from":"a-site"}' });
    expect(api.headers["content-type"]).toBe("application/json");
    expect((await bytesOf(http, "https://b.example/file.bin")).toString()).toBe("binary-ish \u0000 bytes");
    expect(await failure(http.getText("https://a.example/gone"))).toMatchObject({ kind: "http", status: 410 });
  });

  it("a later manifest (depth first, name order) replaces an earlier entry for the same URL", async () => {
    const http = clientOver(ReplayDispatcher.fromDirectory(dir));
    expect((await http.getText("https://shared.example/")).text).toBe("later manifest");
  });

  it("ASSET_SERVER_REPLAY makes the runtime answer from the folder", async () => {
    const runtime = createRuntime(loadConfig({ ASSET_SERVER_REPLAY: dir }));
    clients.push(runtime.http);
    expect(runtime.replay).toBeInstanceOf(ReplayDispatcher);
    expect(await runtime.http.getJson("https://a.example/api?q=1")).toEqual({ from: "a-site" });
  });

  // A server replaying for hours kept one {method, url, headers} record per upstream request (221,576 after 55,000 searches).
  it("ASSET_SERVER_REPLAY keeps nothing per request: after 2,000 upstream requests the dispatcher holds no more items than before", async () => {
    const runtime = createRuntime(loadConfig({ ASSET_SERVER_REPLAY: dir, HTTP_CACHE_TTL_MS: "0" }));
    clients.push(runtime.http);
    const replay = runtime.replay!;
    // Every collection the dispatcher holds, counted through its own fields, whatever they are named.
    const held = () =>
      Object.values(replay).reduce((n: number, v: unknown) => n + (Array.isArray(v) ? v.length : v instanceof Map || v instanceof Set ? v.size : 0), 0);
    const before = held();
    for (let i = 0; i < 2000; i++) await runtime.http.getText("https://a.example/api?q=1");
    expect(held()).toBe(before);
    expect(() => replay.requested).toThrow(/record: true/);
  });

  it("rejects a manifest entry that is not valid", () => {
    const bad = mkdtempSync(join(tmpdir(), "replay-bad-"));
    try {
      writeFileSync(join(bad, "manifest.json"), JSON.stringify({ entries: [{ url: "not a url" }] }));
      expect(() => ReplayDispatcher.fromDirectory(bad)).toThrow();
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });

  it("serves every recording under test/fixtures byte for byte", async () => {
    // What each manifest promises (the last entry of a URL wins), read independently of the dispatcher;
    // URLs with a fault, a `times` queue or a non-2xx answer are left to the tests above.
    const expected = new Map<string, Buffer>();
    const skipped = new Set<string>();
    const walk = (folder: string) => {
      for (const name of readdirSync(folder).sort()) {
        const path = join(folder, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name === "manifest.json") {
          const manifest = JSON.parse(readFileSync(path, "utf8")) as {
            entries: { method?: string; url: string; file?: string; body?: string; status?: number; fault?: string; times?: number }[];
          };
          for (const e of manifest.entries) {
            if ((e.method ?? "GET").toUpperCase() !== "GET") continue;
            const url = new URL(e.url).href;
            if (e.fault || e.times || (e.status ?? 200) >= 300) skipped.add(url);
            expected.set(url, e.file ? readFileSync(join(folder, e.file)) : Buffer.from(e.body ?? ""));
          }
        }
      }
    };
    walk(FIXTURES);
    for (const url of skipped) expected.delete(url);
    expect(expected.size).toBeGreaterThan(0);
    const replay = ReplayDispatcher.fromDirectory(FIXTURES, { record: true });
    const http = clientOver(replay);
    for (const [url, bytes] of expected) expect((await bytesOf(http, url)).equals(bytes), url).toBe(true);
    expect(replay.requested).toEqual([...expected.keys()]);
  });
});

describe("scripted entries", () => {
  it("answers with the entry's status, headers (lower-cased) and body, announcing its length", async () => {
    const replay = new ReplayDispatcher({ record: true }).add({ url: A, body: "héllo", headers: { "X-Thing": "1" } });
    const res = await clientOver(replay).stream(A);
    expect(res.status).toBe(200);
    expect(res.headers["x-thing"]).toBe("1");
    expect(res.sizeBytes).toBe(Buffer.byteLength("héllo"));
    res.body.resume();
  });

  it("serves a body larger than one chunk completely", async () => {
    const body = `${"x".repeat(200_000)}end`;
    const replay = new ReplayDispatcher({ record: true }).add({ url: A, body });
    expect((await clientOver(replay).getText(A)).text).toBe(body);
  });

  it("matches the normalised URL and the method", async () => {
    const replay = new ReplayDispatcher({ record: true })
      .add({ url: "HTTPS://A.Example:443/x", body: "normalised" })
      .add({ method: "POST", url: "https://a.example/post-only", body: "p" });
    const http = clientOver(replay);
    expect((await http.getText(A)).text).toBe("normalised");
    expect(replay.has(A)).toBe(true);
    expect(replay.has("https://a.example/post-only")).toBe(false);
    expect(replay.has("https://a.example/post-only", "post")).toBe(true);
    expect((await failure(http.getText("https://a.example/post-only"))).kind).toBe("unrecorded");
  });

  it("records every request, misses included, with method and headers", async () => {
    const replay = new ReplayDispatcher({ record: true }).add({ url: A, body: "a" });
    const http = clientOver(replay, { USER_AGENT: "replay-test/1" });
    await http.getText(A, { headers: { "X-Api-Key": "k" } });
    await failure(http.getText("https://a.example/missing"));
    expect(replay.requested).toEqual([A, "https://a.example/missing"]);
    expect(replay.log).toHaveLength(2);
    expect(replay.log[0]).toMatchObject({ method: "GET", url: A });
    expect(replay.log[0]?.headers).toMatchObject({ "user-agent": "replay-test/1", "x-api-key": "k" });
    expect(replay.log[1]).toMatchObject({ method: "GET", url: "https://a.example/missing" });
  });

  it("delayMs holds the headers back; an abort during the delay ends the call at once", async () => {
    useFakeTime();
    const replay = new ReplayDispatcher({ record: true }).add({ url: A, body: "late", delayMs: 120 });
    const http = clientOver(replay);
    let answered = false;
    const late = http.getText(A, { cache: false }).finally(() => (answered = true));
    await whenTrue("the request to be asked", () => replay.requested.length === 1);
    await vi.advanceTimersByTimeAsync(119);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await late).text).toBe("late");

    const controller = new AbortController();
    const aborted = failure(http.getText(A, { cache: false, signal: controller.signal }));
    await whenTrue("the second request to be asked", () => replay.requested.length === 2);
    await vi.advanceTimersByTimeAsync(30);
    controller.abort();
    expect((await withoutTime("the aborted call to fail", aborted)).kind).toBe("aborted");
  });
});

describe("answers that change: `times`", () => {
  it("an entry with times answers that many requests, then the standing entry answers", async () => {
    const replay = new ReplayDispatcher({ record: true }).add({ url: A, status: 503, times: 2 }).add({ url: A, body: "up again" });
    const http = clientOver(replay);
    expect((await failure(http.getText(A))).status).toBe(503);
    expect((await failure(http.getText(A))).status).toBe(503);
    expect((await http.getText(A)).text).toBe("up again");
    expect((await http.getText(A, { cache: false })).text).toBe("up again");
    expect(replay.requested).toHaveLength(4);
  });

  it("limited entries answer first in the order added, even when added after the standing one", async () => {
    const replay = new ReplayDispatcher({ record: true })
      .add({ url: A, body: "standing" })
      .add({ url: A, fault: "reset", times: 1 })
      .add({ url: A, status: 502, times: 1 });
    const http = clientOver(replay);
    expect(await failure(http.getText(A))).toMatchObject({ kind: "network", code: "ECONNRESET" });
    expect(await failure(http.getText(A))).toMatchObject({ kind: "http", status: 502 });
    expect((await http.getText(A)).text).toBe("standing");
  });

  it("a later standing entry replaces the earlier one", async () => {
    const replay = new ReplayDispatcher({ record: true }).add({ url: A, body: "old" }).add({ url: A, body: "new" });
    expect((await clientOver(replay).getText(A)).text).toBe("new");
  });

  it("once the limited entries are used up with no standing entry, the URL misses", async () => {
    const replay = new ReplayDispatcher({ record: true }).add({ url: A, body: "once", times: 1 });
    const http = clientOver(replay);
    expect(replay.has(A)).toBe(true);
    expect((await http.getText(A, { cache: false })).text).toBe("once");
    expect(replay.has(A)).toBe(false);
    const err = await failure(http.getText(A, { cache: false }));
    expect(err.kind).toBe("unrecorded");
    expect(err.message).toContain(A);
  });

  it("times drives the client's retries: 503 then 200 is one successful call", async () => {
    const replay = new ReplayDispatcher({ record: true }).add({ url: A, status: 503, times: 1 }).add({ url: A, body: "ok" });
    expect((await clientOver(replay, { HTTP_RETRIES: "2" }).getText(A)).text).toBe("ok");
    expect(replay.requested).toEqual([A, A]);
  });
});

describe("faults", () => {
  it("reset: the connection drops before the headers (after any delay)", async () => {
    useFakeTime();
    const replay = new ReplayDispatcher({ record: true }).add({ url: A, fault: "reset", delayMs: 50 });
    let dropped = false;
    const call = failure(clientOver(replay).stream(A)).finally(() => (dropped = true));
    await whenTrue("the request to be asked", () => replay.requested.length === 1);
    await vi.advanceTimersByTimeAsync(49);
    expect(dropped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call).toMatchObject({ kind: "network", code: "ECONNRESET" });
  });

  it("hang: nothing comes until the caller gives up", async () => {
    useFakeTime();
    const replay = new ReplayDispatcher({ record: true }).add({ url: A, fault: "hang" });
    const http = clientOver(replay);
    const timedOut = failure(http.getText(A, { timeoutMs: 80 }));
    await vi.advanceTimersByTimeAsync(80);
    expect(await timedOut).toMatchObject({ kind: "timeout" });
    const controller = new AbortController();
    const aborted = failure(http.getText(A, { signal: controller.signal }));
    // However long it is left: an hour of fake time brings nothing.
    await whenTrue("the request to be asked", () => replay.requested.length === 2);
    await vi.advanceTimersByTimeAsync(3_600_000);
    controller.abort();
    expect(await withoutTime("the aborted call to fail", aborted)).toMatchObject({ kind: "aborted" });
  });

  it("truncate: the headers announce the whole body, half arrives, then the connection drops", async () => {
    const body = "0123456789".repeat(20_000);
    const replay = new ReplayDispatcher({ record: true }).add({ url: A, body, fault: "truncate" });
    const http = clientOver(replay);
    const res = await http.stream(A);
    expect(res.sizeBytes).toBe(body.length);
    let received = "";
    const read = async () => {
      for await (const chunk of res.body) received += String(chunk);
    };
    await expect(read()).rejects.toThrow(/closed mid-body/);
    expect(received).toBe(body.slice(0, body.length / 2));
    expect((await failure(http.getText(A))).kind).toBe("network");
  });
});

describe("unrecorded requests", () => {
  it("fail like a network error (kind unrecorded) that names the URL, and are not retried", async () => {
    const replay = new ReplayDispatcher({ record: true });
    const http = clientOver(replay, { HTTP_RETRIES: "2" });
    const url = "https://nowhere.example/path?x=1";
    const err = await failure(http.getText(url));
    expect(err.kind).toBe("unrecorded");
    expect(err.code).toBeUndefined();
    expect(err.message).toContain(url);
    expect(err.message).toMatch(/no recorded response/);
    expect(replay.requested).toEqual([url]);
    expect(new ReplayMissError(url).message).toContain(url);
  });
});

describe("nothing reaches the network", () => {
  it("no socket is opened for hits, misses, redirects or faults", async () => {
    const connect = vi.spyOn(net.Socket.prototype, "connect");
    try {
      const replay = new ReplayDispatcher({ record: true })
        .add({ url: A, body: "hit" })
        .add({ url: "https://a.example/r", status: 302, headers: { location: "https://b.example/" } })
        .add({ url: "https://b.example/", body: "b" })
        .add({ url: "https://a.example/reset", fault: "reset" })
        .add({ url: "https://a.example/cut", body: "abcd", fault: "truncate" });
      const http = clientOver(replay, { HTTP_RETRIES: "1" });
      await http.getText(A);
      await http.getText("https://a.example/r");
      await failure(http.getText("https://a.example/reset"));
      await failure(http.getText("https://a.example/cut"));
      await failure(http.getText("https://unrecorded.example/"));
      expect(replay.requested.length).toBeGreaterThanOrEqual(7);
      expect(connect).not.toHaveBeenCalled();

      // Control: the spy does see a socket when the client is given the real undici Agent.
      const server = createServer((_req, res) => res.end("local"));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        const real = createHttpClient({ config: loadConfig({}), allowPrivateAddresses: true });
        clients.push(real);
        await real.getText(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
        expect(connect).toHaveBeenCalled();
      } finally {
        server.closeAllConnections();
        server.close();
      }
    } finally {
      connect.mockRestore();
    }
  });
});
