/**
 * The rate limit in a REAL Redis (Debian's `redis-server` package, installed by
 * test/setup/install-packages.sh, which `npm test` runs first): the test starts the binary on
 * 127.0.0.1 on a free port without persistence, and two servers started as in production
 * (startServer with REDIS_URL) play two replicas behind one load balancer. They share one quota;
 * closing a server closes its Redis connection; with Redis stopped, requests still succeed (each
 * replica counts in memory). It never skips: without the binary it fails.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { startServer } from "../server/start.ts";
import { freePort, until } from "./helpers/daemon.ts";

const BIN = process.env.REDIS_SERVER_BIN ?? "/usr/bin/redis-server";

type Started = Awaited<ReturnType<typeof startServer>>;

/** Starts redis-server and resolves once it accepts connections; rejects with its log otherwise. */
function startRedis(port: number): Promise<{ process: ChildProcess; log: () => string }> {
  const child = spawn(BIN, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const log = () => output;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start within 10 s\n--- redis log ---\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve({ process: child, log });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("error", (error) => (clearTimeout(timer), reject(error)));
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`redis-server exited with ${code}\n--- redis log ---\n${output}`))));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

describe("rate limit in Redis (REDIS_URL)", () => {
  let redis: { process: ChildProcess; log: () => string };
  let probe: Redis;
  let a: Started;
  let b: Started;
  const get = (replica: Started, path = "/v1/providers") => fetch(new URL(path, replica.server.url));
  const clients = async () => String(await probe.client("LIST")).trim().split("\n").length;

  beforeAll(async () => {
    if (!existsSync(BIN)) {
      throw new Error(`${BIN} is missing: run sh test/setup/install-packages.sh (npm test runs it first), or set REDIS_SERVER_BIN to a redis-server binary`);
    }
    const port = await freePort();
    redis = await startRedis(port);
    probe = new Redis({ host: "127.0.0.1", port });
    const env = { HOST: "127.0.0.1", PORT: "0", REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_PER_MINUTE: "3" };
    [a, b] = await Promise.all([startServer(loadConfig(env)), startServer(loadConfig(env))]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([a?.server.close(true), b?.server.close(true)]);
    probe?.disconnect();
    if (redis) await stop(redis.process);
  });

  it("two replicas share one quota: the 4th request overall is refused, with the contract's headers", async () => {
    const answers = [await get(a), await get(b), await get(a)];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(answers.map((r) => r.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0"]);

    const limited = await get(b);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("ratelimit-policy")).toBe('"default";q=3;w=60');
    expect(limited.headers.get("ratelimit-limit")).toBe("3");
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("ratelimit")).toMatch(/^"default";r=0;t=\d+$/);
    const body = (await limited.json()) as { error: string; retryAfter: number };
    expect(body.error).toMatch(/^rate limit exceeded: 3 requests per 60 seconds per client; retry in \d+ s$/);
    expect(body.retryAfter).toBe(Number(limited.headers.get("retry-after")));
    expect((await get(a)).status).toBe(429);

    // The count is Redis's, under the documented prefix.
    expect(await probe.keys("asset-search:rl:*")).toEqual(["asset-search:rl:127.0.0.1"]);
    expect(await probe.get("asset-search:rl:127.0.0.1")).toBe("5");
  });

  it("closing a server closes its Redis connection", async () => {
    const before = await clients();
    await b.server.close(true);
    await until("b's Redis connection to close", async () => ((await clients()) === before - 1 ? true : undefined), 5000);
  });

  it("with Redis stopped, requests still succeed: the replica counts in memory", async () => {
    probe.disconnect();
    await stop(redis.process);

    const started = Date.now();
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(a));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((r) => r.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0", "0"]);
    expect(answers[3]!.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
