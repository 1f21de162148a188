/**
 * SIGTERM on a REAL server process (`node --import tsx server/main.ts`, the TypeScript that `npm start` runs built)
 * with METRICS_PORT and REDIS_URL set (a real redis-server) and a zip download in flight: the
 * download is answered from a replay folder whose five files each come after 300 ms
 * (test/helpers/slow-download.ts), so it streams for about 1.5 s.
 *
 * With the default grace the public port refuses new connections at once, an idle keep-alive
 * connection is closed at once, the download completes, and the process closes the metrics
 * listener and Redis (QUIT) and exits 0 right after it.
 * With a grace shorter than the download, it is cut and the process still exits 0 by grace + 1 s.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort, until } from "./helpers/daemon.ts";
import { type RedisDaemon, startRedis } from "./helpers/redis.ts";
import { SLOW_DOWNLOAD_PATH, type SlowReplay, slowDownloadReplay } from "./helpers/slow-download.ts";
import { unzip } from "./helpers/unzip.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FILE_DELAY_MS = 300;

interface ServerProcess {
  child: ChildProcess;
  port: number;
  metricsPort: number;
  log(): string;
  /** Its log so far, every line parsed as the JSON it must be (server/log.ts). */
  lines(): Record<string, unknown>[];
  /** Settles when the process exits: its code, signal and when (Date.now()). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/**
 * Spawns the server as production does. TEST and CI (set by vitest or a CI runner) are dropped:
 * srvx reads them to skip its own signal handling, which production would have.
 */
async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const { TEST: _test, CI: _ci, ...inherited } = process.env;
  const [port, metricsPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: ROOT,
    env: { ...inherited, HOST: "127.0.0.1", PORT: String(port), METRICS_PORT: String(metricsPort), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const log = () => output;
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  await until("the server to listen", async () => (log().includes("asset-search listening") ? true : undefined), 20_000, log);
  const lines = () =>
    output
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, port, metricsPort, log, lines, exited };
}

/** True once a TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

/** A raw keep-alive connection that has had one answer and now idles; `closed` settles when the server closes it. */
async function idleConnection(port: number): Promise<{ closed: Promise<number> }> {
  const socket = connect(port, "127.0.0.1");
  let answered!: () => void;
  const answer = new Promise<void>((resolve) => (answered = resolve));
  socket.on("data", (chunk: Buffer) => chunk.toString().includes('"ok"') && answered());
  socket.on("error", () => {});
  const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now())));
  socket.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
  await answer;
  return { closed };
}

describe("SIGTERM with METRICS_PORT and REDIS_URL set, a zip download in flight", () => {
  let redis: RedisDaemon;
  let replay: SlowReplay;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    [redis, replay] = [await startRedis(), slowDownloadReplay(FILE_DELAY_MS)];
  }, 20_000);

  afterEach(() => {
    if (server?.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
  });

  afterAll(async () => {
    await redis?.stop();
    replay?.remove();
  });

  it("lets the download finish, closes idle connections, the metrics listener and Redis, and exits 0 right after", async () => {
    server = await spawnServer({ REDIS_URL: redis.url, ASSET_SERVER_REPLAY: replay.dir });
    const base = `http://127.0.0.1:${server.port}`;
    expect((await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`)).status).toBe(200);
    const probe = new Redis(redis.url);
    const monitor = await probe.monitor();
    const commands: string[] = [];
    monitor.on("monitor", (_time: string, args: string[]) => commands.push(String(args[0]).toLowerCase()));
    try {
      const idle = await idleConnection(server.port);
      const res = await fetch(`${base}${SLOW_DOWNLOAD_PATH}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/zip");

      const termAt = Date.now();
      server.child.kill("SIGTERM");
      const download = res.arrayBuffer().then((bytes) => ({ body: Buffer.from(bytes), at: Date.now() }));
      const port = server.port;
      await until("the public port to refuse connections", async () => ((await refused(port)) ? true : undefined), 1000);
      const { body, at: downloadedAt } = await download;
      const exit = await server.exited;

      expect(downloadedAt - termAt).toBeGreaterThan(3 * FILE_DELAY_MS); // the download was in flight
      const entries = [...(await unzip(body))].map(([name, bytes]) => [name, bytes.toString("utf8")]);
      const { "polyhaven-armchair_01/LICENSE.txt": credits, ...files } = Object.fromEntries(entries);
      const synthetic = (name: string) => `SYNTHETIC stand-in for ${name}\n`;
      expect(files).toEqual({
        "polyhaven-armchair_01/ArmChair_01_2k.gltf": synthetic("ArmChair_01_2k.gltf"),
        "polyhaven-armchair_01/ArmChair_01.bin": synthetic("ArmChair_01.bin"),
        "polyhaven-armchair_01/textures/Armchair_01_arm_2k.jpg": synthetic("Armchair_01_arm_2k.jpg"),
        "polyhaven-armchair_01/textures/Armchair_01_diff_2k.jpg": synthetic("Armchair_01_diff_2k.jpg"),
        "polyhaven-armchair_01/textures/Armchair_01_nor_gl_2k.jpg": synthetic("Armchair_01_nor_gl_2k.jpg"),
      });
      expect(credits).toContain("Source:      https://polyhaven.com/a/ArmChair_01");

      expect(await idle.closed).toBeLessThan(termAt + 500);
      expect(exit).toMatchObject({ code: 0, signal: null });
      expect(exit.at - termAt).toBeLessThan(30_000 + 1000); // the default grace + 1 s
      expect(exit.at - downloadedAt).toBeLessThan(1000); // not held by the download's keep-alive connection
      expect(await refused(server.metricsPort)).toBe(true);
      expect(commands).toContain("quit");
      expect(server.lines()).toContainEqual(
        expect.objectContaining({
          level: "info",
          event: "shutdown",
          signal: "SIGTERM",
          msg: "SIGTERM: not accepting connections; requests in flight may finish (a second SIGTERM cuts them)",
        }),
      );
      // The download is logged once it ends, with every byte of its zip.
      expect(server.lines()).toContainEqual(
        expect.objectContaining({
          event: "request",
          requestId: res.headers.get("x-request-id"),
          method: "GET",
          route: "/v1/assets/{id}/download",
          status: 200,
          bytes: body.length,
        }),
      );
    } finally {
      monitor.disconnect();
      probe.disconnect();
    }
  }, 30_000);

  it("GET /ready answers 503 from SIGTERM on, to a request begun before it, while the download in flight finishes", async () => {
    server = await spawnServer({ REDIS_URL: redis.url, ASSET_SERVER_REPLAY: replay.dir });
    const base = `http://127.0.0.1:${server.port}`;
    expect((await fetch(`${base}/ready`)).status).toBe(200);
    const res = await fetch(`${base}${SLOW_DOWNLOAD_PATH}`);
    expect(res.status).toBe(200);
    const download = res.arrayBuffer().then((bytes) => Buffer.from(bytes));
    // Half a request: its connection is busy, not idle, so the shutdown leaves it open to be answered.
    const probe = connect(server.port, "127.0.0.1");
    let answer = "";
    probe.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    const answered = new Promise<void>((resolve) => probe.once("close", () => resolve()));
    await new Promise<void>((resolve) => probe.once("connect", () => resolve()));
    probe.write("GET /ready HTTP/1.1\r\n");

    server.child.kill("SIGTERM");
    const { log } = server;
    await until("the SIGTERM to be handled", async () => (log().includes("SIGTERM: not accepting") ? true : undefined), 5000, log);
    probe.write("Host: probe.internal\r\nConnection: close\r\n\r\n");
    await answered;
    const [head = "", body = ""] = answer.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(JSON.parse(body)).toMatchObject({
      ready: false,
      draining: true,
      reasons: ["shutting down: requests in flight finish, new connections are refused"],
      redis: { state: "up", required: false },
    });

    const zip = [...(await unzip(await download)).keys()];
    expect(zip).toContain("polyhaven-armchair_01/ArmChair_01_2k.gltf");
    expect(await server.exited).toMatchObject({ code: 0, signal: null });
  }, 30_000);

  it("with SHUTDOWN_GRACE_MS shorter than the download, cuts it at the grace and still exits 0 by grace + 1 s", async () => {
    const graceMs = 500;
    server = await spawnServer({ REDIS_URL: redis.url, ASSET_SERVER_REPLAY: replay.dir, SHUTDOWN_GRACE_MS: String(graceMs) });
    const res = await fetch(`http://127.0.0.1:${server.port}${SLOW_DOWNLOAD_PATH}`);
    expect(res.status).toBe(200);

    const termAt = Date.now();
    server.child.kill("SIGTERM");
    const body = await res.arrayBuffer().then(
      () => "complete",
      (error: Error) => `cut: ${error.message}`,
    );
    const exit = await server.exited;

    expect(body).toBe("cut: terminated");
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.at - termAt).toBeLessThan(graceMs + 1000);
    expect(exit.at - termAt).toBeGreaterThanOrEqual(graceMs);
    expect(server.lines()).toContainEqual(
      expect.objectContaining({ level: "warn", event: "shutdown_cut", msg: `shutdown: requests still running after ${graceMs} ms were cut` }),
    );
    expect(await refused(server.metricsPort)).toBe(true);
  }, 30_000);

  it("a second SIGTERM cuts the requests in flight at once; the process still exits 0", async () => {
    server = await spawnServer({ REDIS_URL: redis.url, ASSET_SERVER_REPLAY: replay.dir });
    const res = await fetch(`http://127.0.0.1:${server.port}${SLOW_DOWNLOAD_PATH}`);
    expect(res.status).toBe(200);
    const body = res.arrayBuffer().then(
      () => "complete",
      (error: Error) => `cut: ${error.message}`,
    );

    server.child.kill("SIGTERM");
    const port = server.port;
    await until("the first SIGTERM to close the public port", async () => ((await refused(port)) ? true : undefined), 1000);
    const secondAt = Date.now();
    server.child.kill("SIGTERM");
    const exit = await server.exited;

    expect(await body).toBe("cut: terminated");
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.at - secondAt).toBeLessThan(1000);
    expect(server.lines()).toContainEqual(
      expect.objectContaining({ level: "warn", event: "shutdown_cut", msg: "shutdown: requests still running at a second signal were cut" }),
    );
  }, 30_000);
});
