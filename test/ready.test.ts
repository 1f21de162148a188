/**
 * GET /ready on a server started in process (startServer, no signal handlers): 503 until DATA_URL's
 * publication is loaded, 200 after; 503 naming Redis when REDIS_REQUIRED=true and a real
 * redis-server stops. Like /health it takes no key, no rate limit and any Host. The 503 from
 * SIGTERM on is tested on a real process in test/shutdown.test.ts.
 */
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import type { Readiness } from "../core/schemas/index.ts";
import { exportPublication } from "../pipeline/export.ts";
import { startServer } from "../server/start.ts";
import { until } from "./helpers/daemon.ts";
import { startRedis } from "./helpers/redis.ts";
import { FIXTURES } from "./helpers/replay.ts";
import { scratchDirs } from "./helpers/scratch.ts";
import { staticServer } from "./helpers/static-server.ts";

const tempDir = scratchDirs("ready-", afterAll);
const BASE_ENV = { HOST: "127.0.0.1", PORT: "0", ASSET_SERVER_REPLAY: FIXTURES };

type Started = Awaited<ReturnType<typeof startServer>>;
const baseOf = (started: Started) => `http://127.0.0.1:${new URL(started.server.url!).port}`;

async function ready(started: Started, init?: RequestInit): Promise<{ status: number; body: Readiness }> {
  const res = await fetch(`${baseOf(started)}/ready`, init);
  return { status: res.status, body: (await res.json()) as Readiness };
}

describe("GET /ready", () => {
  it("is 503 while a server started empty waits for DATA_URL's publication, 200 once it is loaded, naming the set either way", async () => {
    const root = tempDir();
    const files = await staticServer(root); // nothing published there yet: the first check fails
    // A rate limit of 1 and an API key: /ready, like /health, is asked by probes that carry neither.
    const env = { ...BASE_ENV, DATA_DIR: tempDir(), DATA_URL: files.url, DATA_POLL_SECONDS: "10", RATE_LIMIT_PER_MINUTE: "1", ASSET_SERVER_API_KEY: "k" };
    const started = await startServer(loadConfig(env), { signals: false });
    try {
      for (let i = 0; i < 3; i++) {
        const before = await ready(started, { headers: { host: "pod-1234.internal:8787" } });
        expect(before.status).toBe(503);
        expect(before.body).toMatchObject({ ready: false, draining: false, redis: { state: "unused", required: false } });
        expect(before.body.reasons).toEqual([`no published data loaded yet: waiting for DATA_URL (${files.url})`]);
        expect(before.body.data).toMatchObject({ loaded: false, source: "dir", url: files.url, assets: 0 });
        expect(before.body.data?.lastError?.message).toBeTruthy();
      }

      exportPublication("data", root);
      expect(await started.deps.data!.checkNow()).toBe("updated");
      const after = await ready(started, { headers: { host: "pod-1234.internal:8787" } });
      expect(after.status).toBe(200);
      expect(after.body).toMatchObject({ ready: true, reasons: [], draining: false, data: { loaded: true, source: "url", url: files.url, lastError: null } });
      expect(after.body.data?.assets).toBeGreaterThan(0);
    } finally {
      await started.shutdown();
      await files.close();
    }
  }, 60_000);

  it("with REDIS_REQUIRED=true is 503 naming Redis once it stops, 200 while it answers; without it a replica stays ready", async () => {
    const redis = await startRedis();
    const env = { ...BASE_ENV, REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: "60" };
    const [required, optional] = await Promise.all([
      startServer(loadConfig({ ...env, REDIS_REQUIRED: "true" }), { signals: false }),
      startServer(loadConfig(env), { signals: false }),
    ]);
    try {
      const up = await ready(required);
      expect(up.status).toBe(200);
      expect(up.body).toMatchObject({ ready: true, reasons: [], redis: { state: "up", required: true }, data: { loaded: true, source: "dir" } });
      expect(up.body.data?.set).toBeTruthy();

      await redis.stop();
      const down = await until(
        "the required Redis to be seen down",
        async () => {
          const answer = await ready(required);
          return answer.status === 503 ? answer : undefined;
        },
        10_000,
      );
      expect(down.body).toMatchObject({ ready: false, redis: { state: "down", required: true } });
      expect(down.body.reasons).toEqual(["Redis (REDIS_URL) is down and REDIS_REQUIRED=true"]);

      const alone = await ready(optional);
      expect(alone.status).toBe(200);
      expect(alone.body).toMatchObject({ ready: true, redis: { state: "down", required: false } });
    } finally {
      await Promise.all([required.shutdown(), optional.shutdown(), redis.stop()]);
    }
  }, 30_000);
});
