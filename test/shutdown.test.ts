/**
 * SIGTERM on a REAL server process (`node --import tsx server/main.ts`, the TypeScript that `npm start` runs built)
 * with METRICS_PORT and REDIS_URL set (a real redis-server) and a zip download in flight: the
 * download is answered from a replay folder whose five files each come after 300 ms
 * (test/helpers/slow-download.ts), so it streams for about 1.5 s.
 *
 * With the default grace the public port refuses new connections while the download goes on, an
 * idle keep-alive connection is closed before the download ends, the download completes, the
 * server closes its keep-alive connection rather than waiting for the client to, and the process
 * closes the metrics listener and Redis (QUIT) and exits 0.
 * With a grace shorter than the download, it is cut at the grace and the process still exits 0.
 * Every check is on the order of events, never on how long they took.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Agent, type IncomingHttpHeaders, request } from "node:http";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort, until } from "./helpers/daemon.ts";
import { SERVER } from "./helpers/entry.ts";
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
  /** Settles when the process exits, with its code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Spawns the server as production does. TEST and CI (set by vitest or a CI runner) are dropped:
 * srvx reads them to skip its own signal handling, which production would have.
 */
async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const { TEST: _test, CI: _ci, ...inherited } = process.env;
  const [port, metricsPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, SERVER, {
    cwd: ROOT,
    env: { ...inherited, HOST: "127.0.0.1", PORT: String(port), METRICS_PORT: String(metricsPort), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const log = () => output;
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
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
async function idleConnection(port: number): Promise<{ closed: Promise<void> }> {
  const socket = connect(port, "127.0.0.1");
  let answered!: () => void;
  const answer = new Promise<void>((resolve) => (answered = resolve));
  socket.on("data", (chunk: Buffer) => chunk.toString().includes('"ok"') && answered());
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
  await answer;
  return { closed };
}

/**
 * GET `path` on a keep-alive connection, with its status, headers and body. `serverEnded`: true
 * when the server ended that connection (its FIN came in), false when this side closed it first:
 * the agent closes it once idle a second before the server's Keep-Alive hint says the server would.
 */
function keptAlive(
  port: number,
  path: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Promise<Buffer>; serverEnded: Promise<boolean> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent: new Agent({ keepAlive: true, timeout: 60_000 }) }, (res) => {
      const socket = res.socket;
      const serverEnded = new Promise<boolean>((ended) => {
        socket.once("end", () => ended(true));
        socket.once("close", () => ended(false));
      });
      const chunks: Buffer[] = [];
      const body = new Promise<Buffer>((done, fail) => {
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.once("end", () => done(Buffer.concat(chunks)));
        res.once("error", fail);
      });
      resolve({ status: res.statusCode!, headers: res.headers, body, serverEnded });
    });
    req.once("error", reject);
    req.end();
  });
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

  it("lets the download finish, closes idle connections, the metrics listener and Redis, and exits 0 without waiting for the client", async () => {
    server = await spawnServer({ REDIS_URL: redis.url, ASSET_SERVER_REPLAY: replay.dir });
    expect((await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`)).status).toBe(200);
    const probe = new Redis(redis.url);
    const monitor = await probe.monitor();
    const commands: string[] = [];
    monitor.on("monitor", (_time: string, args: string[]) => commands.push(String(args[0]).toLowerCase()));
    try {
      const idle = await idleConnection(server.port);
      const download = await keptAlive(server.port, SLOW_DOWNLOAD_PATH);
      expect(download.status).toBe(200);
      expect(download.headers["content-type"]).toBe("application/zip");

      const order: string[] = [];
      void idle.closed.then(() => order.push("idle connection closed"));
      const downloaded = download.body.then((body) => {
        order.push("download complete");
        return body;
      });
      server.child.kill("SIGTERM");
      const port = server.port;
      await until("the public port to refuse connections", async () => ((await refused(port)) ? true : undefined), 10_000);
      expect(order).not.toContain("download complete");
      const body = await downloaded;
      const exit = await server.exited;

      // The idle connection was closed at the signal, before the download in flight ended.
      expect(order).toEqual(["idle connection closed", "download complete"]);
      // The server ended the download's kept-alive connection: the exit waited for no client.
      expect(await download.serverEnded).toBe(true);
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

      expect(exit).toMatchObject({ code: 0, signal: null });
      expect(await refused(server.metricsPort)).toBe(true);
      expect(commands).toContain("quit");
      const lines = server.lines();
      const shutdownLine = lines.findIndex((line) => line.event === "shutdown");
      expect(lines[shutdownLine]).toMatchObject({
        level: "info",
        event: "shutdown",
        signal: "SIGTERM",
        msg: "SIGTERM: not accepting connections; requests in flight may finish (a second SIGTERM cuts them)",
      });
      // The download is logged once it ends, with every byte of its zip: after the signal, so it was in flight then.
      const downloadLine = lines.findIndex((line) => line.event === "request" && line.route === "/v1/assets/{id}/download");
      expect(lines[downloadLine]).toMatchObject({ requestId: download.headers["x-request-id"], method: "GET", status: 200, bytes: body.length });
      expect(downloadLine).toBeGreaterThan(shutdownLine);
      // Within the default grace: nothing was cut.
      expect(lines.filter((line) => line.event === "shutdown_cut")).toEqual([]);
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

  it("with SHUTDOWN_GRACE_MS shorter than the download, cuts it at the grace and still exits 0", async () => {
    const graceMs = 500;
    server = await spawnServer({ REDIS_URL: redis.url, ASSET_SERVER_REPLAY: replay.dir, SHUTDOWN_GRACE_MS: String(graceMs) });
    const res = await fetch(`http://127.0.0.1:${server.port}${SLOW_DOWNLOAD_PATH}`);
    expect(res.status).toBe(200);

    server.child.kill("SIGTERM");
    const body = await res.arrayBuffer().then(
      () => "complete",
      (error: Error) => `cut: ${error.message}`,
    );
    const exit = await server.exited;

    expect(body).toBe("cut: terminated");
    expect(exit).toMatchObject({ code: 0, signal: null });
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
    await until("the first SIGTERM to close the public port", async () => ((await refused(port)) ? true : undefined), 10_000);
    server.child.kill("SIGTERM");
    const exit = await server.exited;

    // Within the default grace of 30 s the download would have completed: the second signal cut it.
    expect(await body).toBe("cut: terminated");
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(server.lines()).toContainEqual(
      expect.objectContaining({ level: "warn", event: "shutdown_cut", msg: "shutdown: requests still running at a second signal were cut" }),
    );
  }, 30_000);
});
