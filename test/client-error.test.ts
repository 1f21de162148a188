/**
 * Requests Node's HTTP parser refuses, and clients too slow to send theirs, on a real socket of
 * the server as `npm start` runs it (startServer): each gets the contract's JSON error and the
 * connection closes, slow clients at the configured timeouts (here 0.5 s for the headers and 1 s
 * for the whole request). A response slower than those timeouts is not cut.
 *
 * Node checks those timeouts on its own clock, which no test can move: the tests assert the order
 * in which connections end (the headers timeout before the request timeout, both before a slow
 * response), never how long anything took.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { requestTimeouts } from "../server/client-error.ts";
import { startServer } from "../server/start.ts";
import { SLOW_DOWNLOAD_PATH, type SlowReplay, slowDownloadReplay } from "./helpers/slow-download.ts";
import { unzip } from "./helpers/unzip.ts";

const HEADERS_TIMEOUT_MS = 500;
const REQUEST_TIMEOUT_MS = 1000;

/** What the server sent on a raw connection until it closed; `closes` hears `name` then. */
async function raw(port: number, data: string, closes?: { name: string; heard: string[] }): Promise<string> {
  const socket = connect(port, "127.0.0.1");
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  socket.on("error", () => {}); // a reset after the answer is the close itself
  socket.write(data);
  await new Promise((resolve) => socket.once("close", resolve));
  closes?.heard.push(closes.name);
  return Buffer.concat(chunks).toString("utf8");
}

/** A client that stops mid-headers, and one that sends its headers and 10 of its 100 body bytes. */
const PARTIAL_HEADERS = "GET /health HTTP/1.1\r\nHost: x\r\n";
const PARTIAL_BODY =
  "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
  'Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{"jsonrpc"';

/** The exact raw response of a JSON error. */
function jsonError(statusLine: string, error: string): string {
  const body = JSON.stringify({ error });
  return (
    `HTTP/1.1 ${statusLine}\r\n` +
    "Content-Type: application/json; charset=utf-8\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "Connection: close\r\n\r\n" +
    body
  );
}

const TIMEOUT_408 = jsonError("408 Request Timeout", "request not received in time: headers are due within 0.5 s, the whole request within 1 s");

describe("requests Node's parser refuses, and slow clients", () => {
  let started: Awaited<ReturnType<typeof startServer>>;
  let replay: SlowReplay;
  let port: number;

  beforeAll(async () => {
    replay = slowDownloadReplay(400);
    const config = loadConfig({
      HOST: "127.0.0.1",
      PORT: "0",
      RATE_LIMIT_PER_MINUTE: "0",
      ASSET_SERVER_REPLAY: replay.dir,
      SERVER_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      SERVER_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    });
    started = await startServer(config, { signals: false });
    port = Number(new URL(started.server.url!).port);
  });

  afterAll(async () => {
    await started?.server.close(true);
    replay?.remove();
  });

  it("headers or a URL over 16 KiB: 431 with the JSON error", async () => {
    const header = await raw(port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20 * 1024)}\r\n\r\n`);
    expect(header).toBe(jsonError("431 Request Header Fields Too Large", "request headers or URL too large (over 16 KiB)"));
    const url = await raw(port, `GET /v1/search?q=${"a".repeat(20 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(url).toBe(header);
  });

  it("an unknown method: 400 with the JSON error naming it", async () => {
    const text = await raw(port, "FOO / HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(text).toBe(jsonError("400 Bad Request", "malformed request: unknown HTTP method"));
  });

  it("other malformed requests: 400 naming the problem", async () => {
    const answers = await Promise.all(
      [
        "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nX: a\u0001b\r\n\r\n",
      ].map((request) => raw(port, request)),
    );
    expect(answers).toEqual([
      jsonError("400 Bad Request", "malformed request line: expected '<method> <target> HTTP/1.1' (a space in the URL must be sent as %20)"),
      jsonError("400 Bad Request", "malformed request: duplicate Content-Length"),
      jsonError("400 Bad Request", "malformed request: invalid header value char"),
    ]);
  });

  it("an Expect other than 100-continue: 417 with the JSON error naming it", async () => {
    const text = await raw(port, "GET /health HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n");
    expect(text).toMatch(/^HTTP\/1\.1 417 Expectation Failed\r\n/);
    expect(text).toMatch(/\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
    expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toEqual({ error: "unsupported Expect 'teapot': only 100-continue is understood" });
  });

  it("an HTTP/1.1 request without Host: 400 with the JSON error; HTTP/1.0 needs none", async () => {
    const text = await raw(port, "GET /health HTTP/1.1\r\nConnection: close\r\n\r\n");
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toMatch(/\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
    expect(text).toContain(JSON.stringify({ error: "missing Host header: an HTTP/1.1 request must name the host it is for" }));
    const old = await raw(port, "GET /health HTTP/1.0\r\n\r\n");
    expect(old).toMatch(/^HTTP\/1\.1 200 /);
    expect(old).toContain('{"ok":true,');
  });

  it("a client that stops mid-headers is cut at the headers timeout, one that stops mid-body later at the request timeout, each with a 408", async () => {
    // Side by side: the one whose headers are due first is cut first, while the other is still open.
    const closes: string[] = [];
    const [headers, body] = await Promise.all([
      raw(port, PARTIAL_HEADERS, { name: "mid-headers", heard: closes }),
      raw(port, PARTIAL_BODY, { name: "mid-body", heard: closes }),
    ]);
    expect(headers).toBe(TIMEOUT_408);
    expect(body).toBe(TIMEOUT_408);
    expect(closes).toEqual(["mid-headers", "mid-body"]);
  });

  it("a response slower than both timeouts (a zip download) is not cut", async () => {
    // A client cut at the request timeout, begun with the download: the download outlasts it.
    const ends: string[] = [];
    const cut = raw(port, PARTIAL_BODY, { name: "mid-body client cut", heard: ends });
    const res = await fetch(`http://127.0.0.1:${port}${SLOW_DOWNLOAD_PATH}`);
    const zip = Buffer.from(await res.arrayBuffer());
    ends.push("download complete");
    expect(await cut).toBe(TIMEOUT_408);
    expect(ends).toEqual(["mid-body client cut", "download complete"]);
    expect(res.status).toBe(200);
    const files = await unzip(zip);
    expect([...files.keys()].sort()).toEqual([
      "polyhaven-armchair_01/ArmChair_01.bin",
      "polyhaven-armchair_01/ArmChair_01_2k.gltf",
      "polyhaven-armchair_01/LICENSE.txt",
      "polyhaven-armchair_01/textures/Armchair_01_arm_2k.jpg",
      "polyhaven-armchair_01/textures/Armchair_01_diff_2k.jpg",
      "polyhaven-armchair_01/textures/Armchair_01_nor_gl_2k.jpg",
    ]);
    expect(files.get("polyhaven-armchair_01/ArmChair_01.bin")!.toString()).toBe("SYNTHETIC stand-in for ArmChair_01.bin\n");
  });

  it("checks the timeouts every quarter of the shortest one, between 100 ms and 1 s (Node's default is 30 s)", () => {
    const at = (h: number, r: number) => requestTimeouts({ serverHeadersTimeoutMs: h, serverRequestTimeoutMs: r });
    expect(at(10_000, 30_000)).toEqual({ headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1000 });
    expect(at(500, 1000).connectionsCheckingInterval).toBe(125);
    expect(at(200, 0).connectionsCheckingInterval).toBe(100);
    expect(at(0, 0).connectionsCheckingInterval).toBe(1000);
  });

  it("refuses a headers timeout longer than the request timeout, naming both variables", () => {
    expect(() => loadConfig({ SERVER_HEADERS_TIMEOUT_MS: "40000" })).toThrow(
      "SERVER_HEADERS_TIMEOUT_MS (40000) must not exceed SERVER_REQUEST_TIMEOUT_MS (30000)",
    );
  });
});
