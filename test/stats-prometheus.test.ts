/**
 * Metrics mode of /v1/stats against a REAL Prometheus (Debian's `prometheus` package, installed by
 * test/setup/install-packages.sh, which `npm test` runs first): the test starts the binary on
 * 127.0.0.1 with a temp config that scrapes this service's /metrics listener every second and a
 * temp storage folder, drives requests, waits for a scrape, and reads /v1/stats. Then it stops
 * Prometheus and checks the fallback to process counts. It never skips: without the binary it fails.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SearchResponse, Stats } from "../core/schemas/index.ts";
import { LATENCY_BUCKETS, type MetricsServer, startMetricsServer } from "../server/stats/metrics.ts";
import { createUsage } from "../server/stats/usage.ts";
import { polyhaven } from "../sources/polyhaven.ts";
import { testApp } from "./helpers/app.ts";
import { freePort, until } from "./helpers/daemon.ts";
import { fakeSearchUrl, fakeSource } from "./helpers/fake-source.ts";
import { fakeElapsed, inTurn, useFakeTime, whenTrue } from "./helpers/fake-time.ts";

const BIN = process.env.PROMETHEUS_BIN ?? "/usr/bin/prometheus";
const QUERY = "zebra-unicorn-7431";
const AGENT = "DistinctiveAgent/9.9";
const ADDRESS = "203.0.113.77";
const asClient = { "user-agent": AGENT, "x-forwarded-for": ADDRESS };

// SYNTHETIC live source (test only): its answers come from the replay dispatcher with scripted
// delays on fake time, so the latency histogram has exactly known contents. No registered source is needed.
const synthetic = fakeSource("synthetic");
const url = (q: string) => fakeSearchUrl("synthetic", q);
// 8 answers meant for the (50, 100] ms bucket, 2 for (500, 750] ms.
const DELAYS = [55, 58, 61, 64, 67, 70, 73, 76, 600, 620];

/** What Prometheus's histogram_quantile answers for these samples over LATENCY_BUCKETS, in ms (its linear interpolation within a bucket). */
function histogramQuantile(q: number, samplesMs: number[]): number {
  const rank = q * samplesMs.length;
  let lower = 0;
  let below = 0;
  for (const le of LATENCY_BUCKETS) {
    const inBucket = samplesMs.filter((ms) => ms / 1000 <= le).length - below;
    if (below + inBucket >= rank) return Math.round((lower + ((le - lower) * (rank - below)) / inBucket) * 1000);
    below += inBucket;
    lower = le;
  }
  return Math.round(lower * 1000);
}

describe("GET /v1/stats with PROMETHEUS_URL (real Prometheus)", () => {
  let prometheus: ChildProcess | undefined;
  let promLog = "";
  let dir: string;
  let metrics: MetricsServer;
  let promUrl: string;

  const promQuery = async (q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> => {
    const res = await fetch(`${promUrl}/api/v1/query?${new URLSearchParams({ query: q })}`);
    const body = (await res.json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
    if (body.status !== "success") throw new Error(JSON.stringify(body));
    return body.data.result;
  };
  const newestScrape = async () => {
    const [sample] = await promQuery("max(timestamp(asset_search_page_views_total))");
    return sample ? Number(sample.value[1]) : undefined;
  };

  beforeAll(async () => {
    if (!existsSync(BIN)) {
      throw new Error(
        `Prometheus is not installed at ${BIN}. Run test/setup/install-packages.sh (npm test runs it as the pretest step), ` +
          "or set PROMETHEUS_BIN to a prometheus binary. This test does not skip.",
      );
    }
  });

  afterEach(() => vi.useRealTimers());

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      prometheus.kill("SIGKILL");
      await new Promise((r) => prometheus!.once("exit", r));
    }
    await metrics?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("reads the 24h and 7d windows and source health from Prometheus, and falls back to process counts without it", async () => {
    let t = Date.now();
    const clock = { now: () => new Date(t) };
    const usage = createUsage({ now: clock.now, sources: ["synthetic"] });
    metrics = await startMetricsServer(usage.metrics, { port: 0, host: "127.0.0.1" });
    const promPort = await freePort();
    promUrl = `http://127.0.0.1:${promPort}`;
    const { get, replay } = await testApp({
      sources: [polyhaven, synthetic],
      env: { PROMETHEUS_URL: promUrl, TRUST_PROXY: "true" },
      usage,
      elapsed: fakeElapsed,
    });
    for (const [i, delayMs] of DELAYS.entries())
      replay.add({ url: url(`lat${i}`), body: '{"items":[]}', headers: { "content-type": "application/json" }, delayMs });

    dir = mkdtempSync(join(tmpdir(), "asset-search-prometheus-"));
    writeFileSync(
      join(dir, "prometheus.yml"),
      [
        "global:",
        "  scrape_interval: 1s",
        "  scrape_timeout: 1s",
        "  evaluation_interval: 1s",
        "scrape_configs:",
        "  - job_name: asset-search",
        "    static_configs:",
        `      - targets: ["127.0.0.1:${metrics.port}"]`,
        "",
      ].join("\n"),
    );
    const started = Date.now();
    prometheus = spawn(
      BIN,
      [
        `--config.file=${join(dir, "prometheus.yml")}`,
        `--storage.tsdb.path=${join(dir, "data")}`,
        `--web.listen-address=127.0.0.1:${promPort}`,
        "--storage.tsdb.retention.time=1h",
        "--log.level=warn",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    prometheus.stdout!.on("data", (d) => (promLog += String(d)));
    prometheus.stderr!.on("data", (d) => (promLog += String(d)));
    const log = () => promLog.slice(-4000);

    await until("Prometheus to be ready", async () => ((await fetch(`${promUrl}/-/ready`)).ok ? true : undefined), 15_000, log);
    const ready = Date.now();
    // The first scrape sees every series at 0: the windows' increase() starts from there.
    await until("the first scrape", newestScrape, 10_000, log);
    const firstScrape = Date.now();

    // The mix: 3 api searches with the distinctive text, 2 from the web page, 10 that reach the
    // synthetic source, 1 over MCP; 2 asset views, 1 download, 1 preview, 2 page views, 2 MCP tool calls.
    for (let i = 0; i < 3; i++) expect((await get(`/v1/search?q=${QUERY}&providers=polyhaven`, { headers: asClient })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const res = await get("/v1/search?q=chair&type=model&providers=polyhaven", {
        headers: { "sec-fetch-site": "same-origin", "user-agent": "Mozilla/5.0 Firefox/133.0" },
      });
      expect(SearchResponse.parse(await res.json()).results.length).toBeGreaterThan(0);
    }
    // On fake time, only while the synthetic source answers: each search asks at one instant and
    // time moves to each answer in turn, so each tookMs is exactly its delay.
    useFakeTime();
    const searches = DELAYS.map(async (_, i) => {
      const res = await get(`/v1/search?q=lat${i}&providers=synthetic`, { headers: { "user-agent": "curl/8.5.0" } });
      return SearchResponse.parse(await res.json()).providers.find((p) => p.provider === "synthetic")!;
    });
    await whenTrue("every search to ask its URL", () => DELAYS.every((_, i) => replay.requested.includes(url(`lat${i}`))));
    const reports = await inTurn(DELAYS, searches);
    vi.useRealTimers();
    expect(reports.map((r) => [r.status, r.tookMs])).toEqual(DELAYS.map((ms) => ["ok", ms]));
    const mcp = async (name: string, args: Record<string, unknown>) => {
      const res = await get("/mcp", {
        method: "POST",
        headers: { ...asClient, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
      });
      expect(res.status).toBe(200);
    };
    await mcp("search_assets", { query: QUERY, providers: ["polyhaven"] });
    await mcp("list_providers", {});
    for (let i = 0; i < 2; i++) expect((await get("/v1/assets/polyhaven:ArmChair_01", { headers: asClient })).status).toBe(200);
    expect((await get("/v1/assets/polyhaven:ArmChair_01/download?maps=diff&format=jpg", { headers: asClient })).status).toBe(302);
    const preview = await get("/v1/assets/polyhaven:ArmChair_01/raw/ArmChair_01_2k.gltf", { headers: asClient });
    expect(preview.status).toBe(200);
    await preview.arrayBuffer();
    for (let i = 0; i < 2; i++) expect((await get("/", { headers: asClient })).status).toBe(200);
    const driven = Date.now();

    // The page views came last: a scrape that holds both holds every count (a scrape reads them all at once).
    const pageViews = async () => (await promQuery("sum(asset_search_page_views_total)"))[0]?.value[1];
    await until("a scrape after the requests", async () => ((await pageViews()) === "2" ? true : undefined), 10_000, log);
    const scraped = Date.now();

    t = Date.now();
    const res = await get("/v1/stats", { headers: asClient });
    const statsMs = Date.now() - t;
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    const text = await res.text();
    for (const secret of [QUERY, "zebra", AGENT, "DistinctiveAgent", ADDRESS]) expect(text, secret).not.toContain(secret);
    const stats = Stats.parse(JSON.parse(text));
    expect(stats.source, stats.note).toBe("metrics");
    expect(stats.since).toBeUndefined();
    expect(stats.note).toBeUndefined();
    const expected = {
      searches: 16,
      searchesWithResults: 2,
      bySurface: { web: 2, api: 13, mcp: 1 },
      assetViews: 2,
      downloads: 1,
      previews: 1,
      toolCalls: 2,
      pageViews: 2,
    };
    expect(stats.windows).toEqual([
      { key: "24h", label: "Last 24 hours", ...expected },
      { key: "7d", label: "Last 7 days", ...expected },
    ]);
    expect(stats.breakdownLabel).toBe("Last 7 days");
    expect(stats.clients).toEqual([
      { name: "curl", count: 10 },
      { name: "other", count: 4 },
      { name: "browser", count: 2 },
    ]);
    expect(stats.tools).toEqual([
      { name: "list_providers", count: 1 },
      { name: "search_assets", count: 1 },
    ]);
    expect(stats.assetTypes).toEqual([
      { name: "any", count: 14 },
      { name: "model", count: 2 },
    ]);

    // Health from the latency histogram: histogram_quantile over the answers' times, within their
    // buckets: p50 = 50 + 50 × 5/8 = 81 ms, p95 = 500 + 250 × 1.5/2 = 688 ms.
    expect([histogramQuantile(0.5, DELAYS), histogramQuantile(0.95, DELAYS)]).toEqual([81, 688]);
    const [health] = stats.providers;
    expect(stats.providers).toHaveLength(1);
    expect(health).toEqual({ provider: "synthetic", requests: 10, ok: 10, errors: 0, timeouts: 0, okRate: 1, p50Ms: 81, p95Ms: 688 });
    const ring = (await usage.snapshot()).providers[0]!;
    console.info(
      `prometheus: ready ${ready - started} ms, first scrape +${firstScrape - ready} ms, requests ${driven - firstScrape} ms, ` +
        `next scrape +${scraped - driven} ms, /v1/stats in metrics mode ${statsMs} ms; ` +
        `synthetic p50/p95: histogram ${health!.p50Ms}/${health!.p95Ms} ms, process ring ${ring.p50Ms}/${ring.p95Ms} ms`,
    );

    // Prometheus gone: the process counts, and a note that says so (without its address).
    prometheus.kill("SIGTERM");
    await new Promise((r) => prometheus!.once("exit", r));
    await get(`/v1/search?q=${QUERY}&providers=polyhaven`, { headers: asClient });
    t += 30_000;
    const cached = Stats.parse(await (await get("/v1/stats")).json());
    expect(cached.source).toBe("metrics"); // still the cached body for 60 s
    t += 31_000;
    const fallbackRes = await get("/v1/stats");
    const fallbackText = await fallbackRes.text();
    const fallback = Stats.parse(JSON.parse(fallbackText));
    expect(fallback.source).toBe("process");
    expect(fallback.note).toMatch(/^Prometheus could not be reached: these are this process's counts since it started/);
    expect(fallbackText).not.toContain(String(promPort));
    expect(fallback.since).toBe(usage.startedAt.toISOString());
    expect(fallback.windows).toEqual([
      { key: "process", label: "Since the last restart", ...expected, searches: 17, bySurface: { ...expected.bySurface, api: 14 } },
    ]);
    // The process ring's nearest rank: the 5th and the 10th answer.
    expect(fallback.providers[0]).toMatchObject({ provider: "synthetic", requests: 10, ok: 10, p50Ms: 67, p95Ms: 620 });
  }, 45_000);
});
