/**
 * The server's logs (server/log.ts), on a server started in process whose lines are captured:
 * every line is one JSON object; a request is one line with exactly its id, method, route
 * template, status, duration and body bytes; the id is the client's `x-request-id` when
 * well-formed, else a new one, and the answer carries it back either way, errors and 404s too;
 * and a search's query text, the client's user agent and its address are in no line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { createApp } from "../server/app.ts";
import { startServer } from "../server/start.ts";
import { capturedLog, type LogLine } from "./helpers/log-lines.ts";
import { FIXTURES } from "./helpers/replay.ts";

const QUERY = "zebracorn-7731";
const AGENT = "ZebracornBrowser/7.7 (quagga; 31)";
const ADDRESS = "198.51.100.77";
/** The client as the server sees it behind one proxy of its own (TRUST_PROXY=1). */
const CLIENT = { "user-agent": AGENT, "x-forwarded-for": ADDRESS };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const waiting = new Map<string, (line: LogLine) => void>();
const { log, written, lines } = capturedLog((line) => {
  if (line.event === "request") waiting.get(line.requestId as string)?.(line);
});

/** The request line of `requestId`, once its response has closed. */
function requestLine(requestId: string): Promise<LogLine> {
  const seen = lines().find((l) => l.event === "request" && l.requestId === requestId);
  return seen ? Promise.resolve(seen) : new Promise((resolve) => waiting.set(requestId, resolve));
}

/** A request line's fields, all of them: nothing else may be added to one. */
const requestFields = (fields: { requestId: string; method: string; route: string; status: number; bytes: number }) => ({
  level: "info",
  time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
  pid: process.pid,
  hostname: expect.any(String),
  event: "request",
  ...fields,
  durationMs: expect.any(Number),
});

/** The body bytes that came over the wire: a compressed answer's declared length (fetch hands its body over decompressed), else the body's. */
async function wireBytes(res: Response): Promise<number> {
  const body = await res.arrayBuffer();
  return res.headers.has("content-encoding") ? Number(res.headers.get("content-length")) : body.byteLength;
}

let started: Awaited<ReturnType<typeof startServer>>;
let base: string;

beforeAll(async () => {
  const config = loadConfig({ HOST: "127.0.0.1", PORT: "0", ASSET_SERVER_REPLAY: FIXTURES, TRUST_PROXY: "1" });
  started = await startServer(config, { signals: false, log });
  base = `http://127.0.0.1:${new URL(started.server.url!).port}`;
});

afterAll(async () => {
  await started.shutdown();
});

describe("the server's log", () => {
  it("starts with one start line: where it listens and the data it serves", () => {
    const { port } = new URL(base);
    expect(lines()[0]).toEqual({
      level: "info",
      time: expect.any(String),
      pid: process.pid,
      hostname: expect.any(String),
      event: "start",
      host: "127.0.0.1",
      port: Number(port),
      set: started.deps.data!.status().set,
      assets: started.deps.published.index.documentCount,
      builtAt: started.deps.published.index.builtAt,
      sources: started.deps.sources.length,
      msg: expect.stringMatching(new RegExp(`^asset-search listening on ${base} — \\d+ indexed assets, \\d+ sources, replaying `)),
    });
  });

  it("logs a search as one line with a new id, echoed, its route template and the bytes it sent", async () => {
    const res = await fetch(`${base}/v1/search?q=${QUERY}&type=texture`, { headers: CLIENT });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).not.toBeNull(); // fetch accepts it, and a search is over a kilobyte
    const bytes = await wireBytes(res);
    const requestId = res.headers.get("x-request-id")!;
    expect(requestId).toMatch(UUID);
    expect(await requestLine(requestId)).toEqual(requestFields({ requestId, method: "GET", route: "/v1/search", status: 200, bytes }));
  });

  it("counts the bytes of a streamed answer, which declares no length", async () => {
    const res = await fetch(`${base}/v1/search?q=${QUERY}`, { headers: { ...CLIENT, accept: "text/event-stream" } });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("content-length")).toBeNull();
    const body = await res.arrayBuffer();
    const requestId = res.headers.get("x-request-id")!;
    expect(requestId).toMatch(UUID);
    expect(await requestLine(requestId)).toEqual(requestFields({ requestId, method: "GET", route: "/v1/search", status: 200, bytes: body.byteLength }));
  });

  it("takes a well-formed x-request-id as it is, and echoes it", async () => {
    const sent = "edge-7f3a.b2:c_1";
    const res = await fetch(`${base}/health`, { headers: { ...CLIENT, "x-request-id": sent } });
    expect(res.status).toBe(200);
    const bytes = await wireBytes(res);
    expect(res.headers.get("x-request-id")).toBe(sent);
    expect(await requestLine(sent)).toEqual(requestFields({ requestId: sent, method: "GET", route: "/health", status: 200, bytes }));
  });

  it.each([
    ["with a space", "not well formed"],
    ["too long", "a".repeat(129)],
    ["with a slash", "a/b"],
  ])("replaces a malformed x-request-id (%s) by a new one, echoed", async (_why, sent) => {
    const res = await fetch(`${base}/v1/providers`, { headers: { ...CLIENT, "x-request-id": sent } });
    expect(res.status).toBe(200);
    const bytes = await wireBytes(res);
    const requestId = res.headers.get("x-request-id")!;
    expect(requestId).toMatch(UUID);
    expect(await requestLine(requestId)).toEqual(requestFields({ requestId, method: "GET", route: "/v1/providers", status: 200, bytes }));
    expect(written.join("")).not.toContain(sent);
  });

  it("names an asset route by its template, never by the path's id, and echoes the id on its error", async () => {
    const res = await fetch(`${base}/v1/assets/nosuchsource:zebracorn-7731/files`, { headers: CLIENT });
    expect(res.status).toBe(404);
    const bytes = await wireBytes(res);
    const requestId = res.headers.get("x-request-id")!;
    expect(requestId).toMatch(UUID);
    expect(await requestLine(requestId)).toEqual(requestFields({ requestId, method: "GET", route: "/v1/assets/{id}/files", status: 404, bytes }));
  });

  it("logs a path no route takes as `unmatched`, and echoes the id on the 404", async () => {
    const sent = "probe-404";
    const res = await fetch(`${base}/v1/no-such-thing/${QUERY}`, { method: "HEAD", headers: { ...CLIENT, "x-request-id": sent } });
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toBe(sent);
    expect(await requestLine(sent)).toEqual(requestFields({ requestId: sent, method: "HEAD", route: "unmatched", status: 404, bytes: 0 }));
  });

  it("writes only JSON lines, none with the query text, the user agent or the client's address", () => {
    expect(written.length).toBeGreaterThan(8);
    for (const chunk of written) {
      expect(chunk.endsWith("\n") && chunk.indexOf("\n") === chunk.length - 1, chunk).toBe(true);
      expect(() => JSON.parse(chunk), chunk).not.toThrow();
      for (const secret of [QUERY, "zebracorn", AGENT, "ZebracornBrowser", ADDRESS]) expect(chunk).not.toContain(secret);
    }
  });
});

describe("an unexpected error", () => {
  it("is logged once with the request's id, the id echoed on the 500, and no query text in the line", async () => {
    const captured = capturedLog();
    const broken = new Proxy(started.deps.published.index, {
      get() {
        throw new Error("the index broke");
      },
    });
    const app = createApp({ ...started.deps, published: { ...started.deps.published, index: broken }, log: captured.log });
    const res = await app.fetch(new Request(`http://localhost/v1/search?q=${QUERY}`, { headers: { ...CLIENT, "x-request-id": "err-1" } }));
    expect(res.status).toBe(500);
    expect(res.headers.get("x-request-id")).toBe("err-1");
    // Answered without a socket (app.fetch): no request line, only the error's.
    expect(captured.lines()).toEqual([
      {
        level: "error",
        time: expect.any(String),
        pid: process.pid,
        hostname: expect.any(String),
        event: "error",
        requestId: "err-1",
        err: expect.objectContaining({ type: "Error", message: "the index broke", stack: expect.stringContaining("the index broke") }),
        msg: "unexpected error: answered 500",
      },
    ]);
    for (const secret of [QUERY, AGENT, ADDRESS]) expect(captured.written.join("")).not.toContain(secret);
  });
});
