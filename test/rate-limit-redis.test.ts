/**
 * The rate limit in a REAL Redis (Debian's `redis-server` package, installed by
 * test/setup/install-packages.sh, which `npm test` runs first): the test starts the binary on
 * 127.0.0.1 on a free port without persistence, and two servers started as in production
 * (startServer with REDIS_URL) play two replicas behind one load balancer. They share one quota;
 * closing a server closes its Redis connection; with Redis stopped, requests still succeed (each
 * replica counts in memory). It never skips: without the binary it fails.
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { startServer } from "../server/start.ts";
import { until } from "./helpers/daemon.ts";
import { type RedisDaemon, startRedis } from "./helpers/redis.ts";

type Started = Awaited<ReturnType<typeof startServer>>;

describe("rate limit in Redis (REDIS_URL)", () => {
  let redis: RedisDaemon;
  let probe: Redis;
  let a: Started;
  let b: Started;
  const get = (replica: Started, path = "/v1/providers") => fetch(new URL(path, replica.server.url));
  const clients = async () =>
    String(await probe.client("LIST"))
      .trim()
      .split("\n").length;

  beforeAll(async () => {
    redis = await startRedis();
    probe = new Redis({ host: "127.0.0.1", port: redis.port });
    const env = { HOST: "127.0.0.1", PORT: "0", REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: "3" };
    const start = () => startServer(loadConfig(env), { signals: false });
    [a, b] = await Promise.all([start(), start()]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([a?.server.close(true), b?.server.close(true)]);
    probe?.disconnect();
    await redis?.stop();
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

  it("closing a server closes its Redis connections: the rate limit's, and the shared state's two (server/shared/redis.ts)", async () => {
    const before = await clients();
    await b.server.close(true);
    await until("b's Redis connections to close", async () => ((await clients()) === before - 3 ? true : undefined), 5000);
  });

  it("with Redis stopped, requests still succeed: the replica counts in memory", async () => {
    probe.disconnect();
    await redis.stop();

    // Once the replica sees Redis down, its limiter sends Redis nothing (rejectIfRedisNotReady in
    // server/middleware/rate-limit.ts): the in-memory count answers at once.
    const redisState = async () => ((await (await get(a, "/ready")).json()) as { redis: { state: string } }).redis.state;
    await until("a to see Redis down", async () => ((await redisState()) === "down" ? true : undefined), 10_000);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(a));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((r) => r.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0", "0"]);
    expect(answers[3]!.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
