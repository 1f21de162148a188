import { createServer, type RequestListener, request } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { fromBufferPromise } from "yauzl";
import { createHttpClient } from "../core/http/client.ts";
import type { HttpClient } from "../core/http/types.ts";
import { AssetIndex } from "../core/index/search-index.ts";
import type { Source } from "../core/model/source.ts";
import type { AssetDetails, AssetFile } from "../core/schemas/index.ts";
import { BreakerRegistry } from "../core/search/circuit-breaker.ts";
import { createApp } from "../server/app.ts";
import { streamZip } from "../server/download/zip.ts";
import { DOWNLOAD_FAILURE_REASONS, METRIC, Metrics } from "../server/stats/metrics.ts";
import { createUsage } from "../server/stats/usage.ts";
import { listen } from "./helpers/app.ts";
import { fakeSource } from "./helpers/fake-source.ts";
import { capturedLog } from "./helpers/log-lines.ts";
import { replayRuntime } from "./helpers/replay.ts";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

/** A node:http upstream on 127.0.0.1, stopped after the test; `asked` lists the paths requested. */
async function upstream(handler: RequestListener): Promise<{ base: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? "");
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stops.push(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

/**
 * The whole app on a real socket, with one source `loop` whose asset `loop:lamp` is `file`; its
 * downloads go through a client allowed to reach the loopback upstream. `lines` are its log's.
 */
async function serveAsset(file: AssetFile) {
  const runtime = replayRuntime({ env: { RATE_LIMIT_PER_MINUTE: "0" } });
  const http = createHttpClient({ config: runtime.config, allowPrivateAddresses: true });
  stops.push(() => http.close());
  const details: AssetDetails = {
    id: "loop:lamp",
    provider: "loop",
    nativeId: "lamp",
    title: "Lamp",
    type: "model",
    tags: [],
    url: "https://loop.example/a/lamp",
    downloadable: true,
    files: [file],
  };
  const source: Source = { ...fakeSource("loop"), getAsset: async (id) => (id === "lamp" ? details : null) };
  const usage = createUsage({ sources: [source.id], downloadSources: [source.id] });
  const published = { index: AssetIndex.empty(), catalog: undefined, history: { points: [] } };
  const { log, lines } = capturedLog();
  const app = createApp({ runtime: { ...runtime, http }, sources: [source], published, breakers: new BreakerRegistry(), usage, log });
  const server = await listen(app);
  stops.push(server.close);
  return { url: `${server.url}/v1/assets/loop:lamp/download`, metrics: usage.metrics, lines };
}

/** The download-failure counter of `provider` by reason, read from the metrics registry. */
async function failures(metrics: Metrics, provider: string): Promise<Record<string, number>> {
  const { values } = await metrics.registry.getSingleMetric(METRIC.downloadFailures)!.get();
  return Object.fromEntries(values.filter((v) => v.labels.provider === provider).map((v) => [v.labels.reason, v.value]));
}

const zeroes = () => Object.fromEntries(DOWNLOAD_FAILURE_REASONS.map((r) => [r, 0]));

/** A GET over a real socket, read until the response closes (ended or cut). */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; complete: boolean; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", () => {}); // the cut is what is asserted
      res.on("close", () => resolve({ status: res.statusCode ?? 0, complete: res.complete, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

describe("a zip cut short", () => {
  it("is logged once (asset, file, upstream status; nothing about the client) and counted by provider and reason", async () => {
    const { base, asked } = await upstream((req, res) => {
      if (req.url === "/scene.gltf") res.end('{"asset":{"version":"2.0"}}');
      else res.writeHead(500).end("upstream broke");
    });
    const { url, metrics, lines } = await serveAsset({
      url: `${base}/scene.gltf`,
      filename: "scene.gltf",
      format: "gltf",
      includes: [{ path: "scene.bin", url: `${base}/scene.bin` }],
    });

    const res = await get(`${url}?resolution=2k`, { "user-agent": "SecretAgent/1.0", "x-forwarded-for": "203.0.113.7" });

    expect(res.status).toBe(200);
    expect(res.complete).toBe(false);
    await expect(fromBufferPromise(res.body)).rejects.toThrow();
    expect(asked).toEqual(["/scene.gltf", "/scene.bin"]);
    // The exact line: no address, user agent or query of the client (nor the upstream URL); the request's id.
    expect(lines()).toEqual([
      {
        level: "warn",
        time: expect.any(String),
        pid: process.pid,
        hostname: expect.any(String),
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        event: "download_failed",
        asset: "loop:lamp",
        file: "loop-lamp/scene.bin",
        reason: "upstream_http",
        upstreamStatus: 500,
        msg: "download: zip cut short",
      },
    ]);
    expect(await failures(metrics, "loop")).toEqual({ ...zeroes(), upstream_http: 1 });
  });

  it("a client leaving mid-zip stops the upstream transfer; counted as client_gone, not logged", async () => {
    const chunk = Buffer.alloc(16 * 1024, "m");
    let upstreamClosed!: Promise<void>;
    const { base, asked } = await upstream((_req, res) => {
      upstreamClosed = new Promise((resolve) => res.on("close", () => resolve()));
      res.writeHead(200, { "content-type": "model/gltf-binary" });
      // A body that never ends: a chunk every 5 ms, while the reader keeps up.
      const timer = setInterval(() => res.writableNeedDrain || res.write(chunk), 5);
      res.on("close", () => clearInterval(timer));
    });
    const { url, metrics, lines } = await serveAsset({
      url: `${base}/model.glb`,
      filename: "model.glb",
      format: "glb",
      includes: [{ path: "texture.jpg", url: `${base}/texture.jpg` }],
    });

    await new Promise<void>((resolve, reject) => {
      const req = request(url, (res) => {
        let received = 0;
        res.on("error", () => {});
        res.on("data", (c: Buffer) => {
          received += c.length;
          if (received < 256 * 1024 || req.destroyed) return;
          req.destroy();
          resolve();
        });
      });
      req.on("error", () => {});
      req.on("close", () => reject(new Error("the response ended before the client left")));
      req.end();
    });
    // The upstream body never ends by itself: only the client's leaving can close it.
    await upstreamClosed;
    expect(asked).toEqual(["/model.glb"]);
    expect(await failures(metrics, "loop")).toEqual({ ...zeroes(), client_gone: 1 });
    expect(lines()).toEqual([]);
  });

  it("an upstream body that goes idle past the client's body timeout counts as timeout", async () => {
    // Some bytes, then the error undici's body timeout raises on the stream.
    let reads = 0;
    const body = new Readable({
      read() {
        if (reads++ === 0) this.push("partial");
        else this.destroy(Object.assign(new Error("Body Timeout Error"), { code: "UND_ERR_BODY_TIMEOUT" }));
      },
    });
    const http = { stream: async (url: string) => ({ url, status: 200, headers: {}, body }) } as unknown as HttpClient;
    const metrics = new Metrics({ downloadSources: ["example"] });
    const { log, lines } = capturedLog();
    const out = streamZip(
      { assetId: "example:asset", provider: "example", folder: "example-asset", entries: [{ path: "a.bin", url: "https://files.example.com/a.bin" }] },
      "credits",
      { http, maxBytes: 1024, metrics, log },
    );
    out.resume();
    await new Promise((resolve) => out.on("error", resolve));
    expect(lines()).toEqual([
      {
        level: "warn",
        time: expect.any(String),
        pid: process.pid,
        hostname: expect.any(String),
        event: "download_failed",
        asset: "example:asset",
        file: "example-asset/a.bin",
        reason: "timeout",
        code: "UND_ERR_BODY_TIMEOUT",
        msg: "download: zip cut short",
      },
    ]);
    expect(await failures(metrics, "example")).toEqual({ ...zeroes(), timeout: 1 });
  });
});
