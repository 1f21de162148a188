/**
 * What replicas share through a REAL Redis (REDIS_URL; redis-server from
 * test/setup/install-packages.sh on 127.0.0.1, without persistence) besides the rate limit: the
 * upstream response cache and the circuit breakers' state (server/shared/). Two servers started as
 * in production (startServer) play two replicas: A answers upstream requests from the recordings,
 * B from an empty folder of recordings, so any request B sends upstream fails, and what B answers
 * well came from Redis. A source made to fail on A is then skipped by B, which never asked it. With
 * Redis stopped both answer alone, and say so in /ready and in a log line; once it is back, they
 * share again. Then the pieces on their own: the cache's bound in bytes and its cap per entry, and
 * two breaker registries with clocks of their own, where failures on both add up and a probe that
 * succeeds after the cooldown closes the breaker on the other replica too.
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import type { ProviderReport, Readiness } from "../core/schemas/index.ts";
import { BreakerRegistry } from "../core/search/circuit-breaker.ts";
import { createLogger } from "../server/log.ts";
import { connectShared, type SharedState } from "../server/shared/redis.ts";
import { redisCache, SHARED_ENTRY_MAX_BYTES } from "../server/shared/redis-cache.ts";
import { startServer } from "../server/start.ts";
import { until } from "./helpers/daemon.ts";
import { type RedisDaemon, startRedis } from "./helpers/redis.ts";
import { FIXTURES } from "./helpers/replay.ts";
import { scratchDirs } from "./helpers/scratch.ts";

type Started = Awaited<ReturnType<typeof startServer>>;
type Line = Record<string, unknown>;

const tempDir = scratchDirs("shared-state-", afterAll);

/** A logger at info whose lines the test reads. */
function capture() {
  const lines: Line[] = [];
  const log = createLogger("info", { write: (chunk: string) => void lines.push(JSON.parse(chunk) as Line) });
  return { log, lines };
}

const POLYFORK_SEARCH = "https://polyfork.dev/api/assets?q=rock&per_page=24";

describe("state shared by replicas through Redis (REDIS_URL)", () => {
  let redis: RedisDaemon;
  let probe: Redis;
  let a: Started;
  let b: Started;
  const logs = { a: capture(), b: capture() };

  const get = async (replica: Started, path: string) => {
    const res = await fetch(new URL(path, replica.server.url));
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  /** `q` may carry more parameters of the search (`sunset&type=hdri`). */
  const search = async (replica: Started, q: string, provider: string) => {
    const { status, body } = await get(replica, `/v1/search?q=${q}&providers=${provider}`);
    const providers = body.providers as ProviderReport[];
    return { status, line: providers.find((p) => p.provider === provider), ids: (body.results as { id: string }[]).map((r) => r.id) };
  };
  const ready = async (replica: Started) => (await get(replica, "/ready")) as { status: number; body: Readiness };

  beforeAll(async () => {
    redis = await startRedis();
    probe = new Redis({ host: "127.0.0.1", port: redis.port });
    // No rate limit: Redis serves the cache and the breakers alone.
    // One public address, as behind one proxy: the replicas' answers are the same, links included.
    const env = { HOST: "127.0.0.1", PORT: "0", REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: "0", ASSET_SERVER_PUBLIC_URL: "http://assets.example" };
    [a, b] = await Promise.all([
      startServer(loadConfig({ ...env, ASSET_SERVER_REPLAY: FIXTURES }), { signals: false, log: logs.a.log }),
      startServer(loadConfig({ ...env, ASSET_SERVER_REPLAY: tempDir() }), { signals: false, log: logs.b.log }),
    ]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([a?.shutdown(), b?.shutdown()]);
    probe?.disconnect();
    await redis?.stop();
  });

  it("says in /ready that it shares through Redis", async () => {
    for (const replica of [a, b]) {
      const { status, body } = await ready(replica);
      expect(status).toBe(200);
      expect(body.redis).toEqual({ state: "up", required: false, sharing: "shared" });
    }
  });

  it("a search answered through A is answered by B without an upstream request", async () => {
    const first = await search(a, "tree", "sketchfab");
    expect(first.line).toMatchObject({ status: "ok", count: 3 });
    expect(first.ids).toHaveLength(3);

    const second = await search(b, "tree", "sketchfab");
    expect(second).toEqual({ ...first, line: { ...first.line, tookMs: second.line?.tookMs } });
    // B's own recordings hold nothing: asked upstream, it fails as unrecorded.
    expect(await search(b, "chair", "sketchfab")).toMatchObject({ status: 200, line: { status: "error" } });

    // Kept under a hash of the URL and headers, in the cache's bounded bookkeeping.
    const entries = await probe.keys("asset-search:http:*");
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((k) => /^asset-search:http:[0-9a-f]{64}$/.test(k))).toBe(true);
    expect((await probe.zrange("asset-search:http-order", 0, -1)).sort()).toEqual(entries.sort());

    // What B read from Redis it keeps in its own cache too: with Redis emptied it still answers.
    await probe.flushall();
    expect((await search(b, "tree", "sketchfab")).ids).toEqual(first.ids);
  });

  it("an asset's details fetched through A are answered by B", async () => {
    const path = "/v1/assets/sketchfab:d9e174d623124d2aa23122683018f6e6";
    const fromA = await get(a, path);
    expect(fromA.status).toBe(200);
    expect(await get(b, path)).toEqual(fromA);
  });

  it("a source that failed three times through A is skipped by B, which never asks it", async () => {
    a.deps.runtime.replay!.add({ url: POLYFORK_SEARCH, status: 500, body: "synthetic failure" });
    for (let i = 0; i < 3; i++) expect((await search(a, "rock", "polyfork")).line).toMatchObject({ status: "error" });
    expect((await search(a, "rock", "polyfork")).line).toMatchObject({ status: "skipped", error: "cooling down after repeated failures" });

    // B hears it through Redis's channel, not by a search of its own.
    await until("B's breaker to open", async () => (b.deps.breakers.for("polyfork").state === "open" ? true : undefined), 5000);
    expect((await search(b, "rock", "polyfork")).line).toMatchObject({ status: "skipped", count: 0, error: "cooling down after repeated failures" });
    // Asked, B would have reported an error: it holds no recording of polyfork.
    expect(await probe.pttl("asset-search:breaker:polyfork:open")).toBeGreaterThan(0);
    // Each replica says so in a line of its own.
    for (const { lines } of [logs.a, logs.b]) {
      expect(lines.filter((l) => l.event === "breaker_open")).toEqual([
        expect.objectContaining({ level: "warn", source: "polyfork", msg: "breaker of polyfork opened: the source is skipped while it cools down" }),
      ]);
    }
  });

  it("with Redis down both replicas answer alone and say so; once it is back they share again", async () => {
    probe.disconnect();
    const port = redis.port;
    await redis.stop();
    for (const replica of [a, b]) {
      await until("Redis to be seen down", async () => ((await ready(replica)).body.redis.state === "down" ? true : undefined), 10_000);
      const { status, body } = await ready(replica);
      expect(status).toBe(200);
      expect(body.redis).toEqual({ state: "down", required: false, sharing: "local" });
      expect((await search(replica, "wood&type=texture", "3dtextures")).status).toBe(200);
    }
    expect((await search(a, "wood&type=texture", "3dtextures")).line).toMatchObject({ status: "ok" });
    for (const { lines } of Object.values(logs)) {
      const line = await until("the line saying Redis is down", async () => lines.find((l) => l.event === "redis_down"), 10_000);
      expect(line).toMatchObject({
        level: "warn",
        msg: "shared state: Redis unavailable; the upstream cache and the circuit breakers are per replica until it is back",
      });
    }

    redis = await startRedis({ port });
    probe = new Redis({ host: "127.0.0.1", port });
    for (const replica of [a, b]) {
      await until("Redis to be seen up again", async () => ((await ready(replica)).body.redis.sharing === "shared" ? true : undefined), 10_000);
    }
    for (const { lines } of Object.values(logs)) {
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: "info",
          event: "redis_up",
          msg: "shared state: Redis is back; the upstream cache and the circuit breakers are shared again",
        }),
      );
    }
    const fromA = await search(a, "sunset&type=hdri", "hdrmaps");
    expect(fromA.line).toMatchObject({ status: "ok" });
    expect(fromA.ids.length).toBeGreaterThan(0);
    expect((await search(b, "sunset&type=hdri", "hdrmaps")).ids).toEqual(fromA.ids);
  }, 30_000);
});

describe("server/shared's pieces on one Redis", () => {
  let redis: RedisDaemon;
  let client: Redis;
  const shared: SharedState[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis({ host: "127.0.0.1", port: redis.port });
  });

  afterAll(async () => {
    await Promise.all(shared.map((s) => s.close()));
    client?.disconnect();
    await redis?.stop();
  });

  it("the response cache keeps its bytes under its bound, the oldest going first, and refuses an entry over the cap", async () => {
    const response = (text: string) => ({ url: "https://site.example/a", status: 200, headers: { "content-type": "text/plain" }, text });
    // An entry counts its body and its name three times (the entry, the order, the sizes): 741 bytes here, so one fits in 1000.
    const size = (text: string) => Buffer.byteLength(JSON.stringify(response(text))) + 3 * "asset-search:http:".concat("0".repeat(64)).length;
    expect(size("2".repeat(400))).toBe(741);
    const cache = redisCache(client, 1000);
    await cache.set("GET one", response("1".repeat(400)), 60_000);
    const one = await cache.get("GET one");
    expect(one?.response).toEqual(response("1".repeat(400)));
    expect(one?.ttlMs).toBeGreaterThan(0);
    expect(one?.ttlMs).toBeLessThanOrEqual(60_000);
    await cache.set("GET two", response("2".repeat(400)), 60_000);
    expect(await cache.get("GET one")).toBeUndefined();
    expect((await cache.get("GET two"))?.response).toEqual(response("2".repeat(400)));
    expect(await client.get("asset-search:http-bytes")).toBe("741");
    expect(await client.zcard("asset-search:http-order")).toBe(1);

    await cache.set("GET big", response("3".repeat(1000)), 60_000);
    expect(await cache.get("GET big")).toBeUndefined();
    expect(await cache.get("GET two")).toBeDefined();

    const roomy = redisCache(client, 64 * 1024 * 1024);
    await roomy.set("GET huge", response("4".repeat(SHARED_ENTRY_MAX_BYTES)), 60_000);
    expect(await roomy.get("GET huge")).toBeUndefined();
    // What is kept lives for the TTL it was given, no longer.
    await roomy.set("GET short", response("5"), 1000);
    const short = await roomy.get("GET short");
    expect(short?.ttlMs).toBeGreaterThan(0);
    expect(short?.ttlMs).toBeLessThanOrEqual(1000);
  });

  it("failures add up across replicas, the open breaker reaches the other, and a good probe after the cooldown closes it everywhere", async () => {
    const { log } = capture();
    const config = loadConfig({ REDIS_URL: redis.url });
    const replica = async () => {
      const connection = connectShared(config, log);
      shared.push(connection);
      await connection.connected;
      const clock = { now: 0 };
      const changes: string[] = [];
      const breakers = new BreakerRegistry(3, 60_000, () => clock.now, {
        shared: connection.breakers,
        onChange: (id, state) => changes.push(`${id} ${state}`),
      });
      return { breakers, clock, changes, breaker: breakers.for("alpha") };
    };
    const [a, b] = [await replica(), await replica()];
    const heard = (what: string, holds: () => boolean) => until(what, async () => (holds() ? true : undefined), 5000);

    a.breaker.failure();
    b.breaker.failure();
    a.breaker.failure();
    // Three failures between them, fewer than three each: both open.
    await heard("both breakers to open", () => a.breaker.state === "open" && b.breaker.state === "open");
    expect([a.changes, b.changes]).toEqual([["alpha open"], ["alpha open"]]);
    expect(b.breaker.tryAcquire()).toBe(false);

    // Past A's cooldown A sends its probe; it succeeds and B, still in its cooldown, closes.
    a.clock.now = 61_000;
    expect(a.breaker.tryAcquire()).toBe(true);
    a.breaker.success();
    await heard("B's breaker to close", () => b.breaker.state === "closed");
    expect([a.changes, b.changes]).toEqual([
      ["alpha open", "alpha closed"],
      ["alpha open", "alpha closed"],
    ]);
    expect(b.breaker.tryAcquire()).toBe(true);
  });
});
