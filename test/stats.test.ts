import { afterEach, describe, expect, it, vi } from "vitest";
import { SearchResponse, Stats } from "../core/schemas/index.ts";
import { CLIENT_FAMILIES, clientFamily } from "../server/stats/client-family.ts";
import { type MetricsServer, routeTemplate, startMetricsServer } from "../server/stats/metrics.ts";
import { createUsage, LatencyRing } from "../server/stats/usage.ts";
import { SOURCES } from "../sources/index.ts";
import { polyhaven } from "../sources/polyhaven.ts";
import { testApp } from "./helpers/app.ts";
import { fakeSearchUrl, fakeSource } from "./helpers/fake-source.ts";
import { fakeElapsed, inTurn, useFakeTime, whenTrue } from "./helpers/fake-time.ts";

// Distinctive inputs: none of them may ever appear in /v1/stats or /metrics.
const QUERY = "zebra-unicorn-7431";
const AGENT = "DistinctiveAgent/9.9";
const ADDRESS = "203.0.113.77";
const SECRETS = [QUERY, "zebra", "unicorn", "7431", AGENT, "DistinctiveAgent", ADDRESS, "203.0.113"];

/** A clock the test moves by hand (the stats cache and generatedAt). */
function manualClock(start = Date.parse("2026-11-22T10:00:00Z")) {
  let t = start;
  return {
    now: () => new Date(t),
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const asClient = { "user-agent": AGENT, "x-forwarded-for": ADDRESS };
const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

/** A JSON-RPC tools/call over POST /mcp (stateless: one request, no session). */
const mcpCall = (name: string, args: Record<string, unknown>, id: number) => ({
  method: "POST",
  headers: { ...asClient, "content-type": "application/json", accept: "application/json, text/event-stream" },
  body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } }),
});

let metricsServer: MetricsServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await metricsServer?.close();
  metricsServer = undefined;
});

describe("GET /v1/stats, process mode", () => {
  it("counts exactly the requests made, validates against Stats, and never holds query, address or agent", async () => {
    const clock = manualClock();
    const usage = createUsage({ now: clock.now });
    // Poly Haven only (indexed): every count below is then exact whatever else is registered.
    const { get } = await testApp({ env: { TRUST_PROXY: "true" }, sources: [polyhaven], usage });

    const search = async (qs: string, headers: Record<string, string>) => {
      const res = await get(`/v1/search?${qs}`, { headers });
      expect(res.status, qs).toBe(200);
      return SearchResponse.parse(await res.json());
    };
    // api: 3 searches with the distinctive text (no results), 1 filtered search with results (curl).
    for (let i = 0; i < 3; i++) expect((await search(`q=${QUERY}`, asClient)).results).toEqual([]);
    expect((await search("q=rock&type=texture", { "user-agent": "curl/8.5.0" })).results.length).toBeGreaterThan(0);
    // web: 2 from the page (the browser's own Sec-Fetch-Site), 1 from a front end that says so.
    for (let i = 0; i < 2; i++) {
      const body = await search("q=chair&type=model,hdri", { "user-agent": BROWSER_UA, "sec-fetch-site": "same-origin" });
      expect(body.results.length).toBeGreaterThan(0);
    }
    expect((await search(`q=${QUERY}&type=model`, { ...asClient, "x-asset-search-client": "web" })).results).toEqual([]);
    // Refused searches are not searches.
    expect((await get(`/v1/search?q=${QUERY}&limit=0`, { headers: asClient })).status).toBe(400);
    // mcp: search_assets twice (one with results), get_asset once, list_providers once.
    const mcp = async (name: string, args: Record<string, unknown>, id: number) => {
      const res = await get("/mcp", mcpCall(name, args, id));
      expect(res.status, name).toBe(200);
      const body = (await res.json()) as { result?: { isError?: boolean; structuredContent?: { results?: unknown[] } } };
      expect(body.result?.isError ?? false, JSON.stringify(body)).toBe(false);
      return body.result!;
    };
    expect((await mcp("search_assets", { query: QUERY }, 1)).structuredContent?.results).toEqual([]);
    expect((await mcp("search_assets", { query: "chair", types: ["model"] }, 2)).structuredContent?.results?.length).toBeGreaterThan(0);
    await mcp("get_asset", { id: "polyhaven:ArmChair_01" }, 3);
    await mcp("list_providers", {}, 4);
    // Asset views (2 answered; a 404 is not a view), files (not a view), downloads (1 redirect, 1 zip; a 404 is not one).
    for (let i = 0; i < 2; i++) expect((await get("/v1/assets/polyhaven:ArmChair_01", { headers: asClient })).status).toBe(200);
    expect((await get("/v1/assets/nosuchsite:ArmChair_01", { headers: asClient })).status).toBe(404);
    expect((await get("/v1/assets/polyhaven:ArmChair_01/files", { headers: asClient })).status).toBe(200);
    expect((await get("/v1/assets/polyhaven:ArmChair_01/download?maps=diff&format=jpg", { headers: asClient })).status).toBe(302);
    const zip = await get("/v1/assets/polyhaven:ArmChair_01/download", { headers: asClient });
    expect(zip.status).toBe(200);
    await zip.arrayBuffer();
    expect((await get("/v1/assets/polyhaven:ArmChair_01/download?maps=sheen", { headers: asClient })).status).toBe(404);
    // HEAD asks for headers only (monitors, link checkers): never a search, view, download or page view.
    for (const path of [`/v1/search?q=${QUERY}`, "/v1/assets/polyhaven:ArmChair_01", "/v1/assets/polyhaven:ArmChair_01/download", "/"]) {
      expect((await get(path, { method: "HEAD", headers: asClient })).status, path).toBe(200);
    }
    // Page views: the page, and a shared asset link to it.
    expect((await get("/", { headers: asClient })).status).toBe(200);
    expect((await get("/?asset=polyhaven%3AArmChair_01", { headers: asClient })).status).toBe(200);

    const res = await get("/v1/stats", { headers: asClient });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    expect(res.headers.get("ratelimit-limit")).toBeNull(); // RATE_LIMIT_PER_MINUTE=0 in tests; the middleware covers /v1/* otherwise
    const text = await res.text();
    const stats = Stats.parse(JSON.parse(text));

    expect(stats.source).toBe("process");
    expect(stats.since).toBe(clock.now().toISOString());
    expect(stats.generatedAt).toBe(clock.now().toISOString());
    expect(stats.note).toBeUndefined();
    expect(stats.windows).toEqual([
      {
        key: "process",
        label: "Since the last restart",
        searches: 9,
        searchesWithResults: 4,
        bySurface: { web: 3, api: 4, mcp: 2 },
        assetViews: 2,
        downloads: 2,
        previews: 0,
        toolCalls: 4,
        pageViews: 2,
      },
    ]);
    expect(stats.breakdownLabel).toBe("Since the last restart");
    // The agent is "other" (3 api + 1 web + 2 mcp: the MCP client sent the same agent); curl 1; browser 2.
    expect(stats.clients).toEqual([
      { name: "other", count: 6 },
      { name: "browser", count: 2 },
      { name: "curl", count: 1 },
    ]);
    expect(stats.tools).toEqual([
      { name: "search_assets", count: 2 },
      { name: "get_asset", count: 1 },
      { name: "list_providers", count: 1 },
    ]);
    expect(stats.assetTypes).toEqual([
      { name: "any", count: 4 },
      { name: "model", count: 4 },
      { name: "hdri", count: 2 },
      { name: "texture", count: 1 },
    ]);
    expect(stats.providers).toEqual([]); // Poly Haven is indexed: no search reaches it
    expect(stats.catalog).toEqual({ sources: 1, directDownload: 1, byAccess: { api: 1 }, byPricing: { free: 1 } });

    // Privacy, in the stats and in the Prometheus text.
    const metrics = await usage.metrics.text();
    for (const secret of SECRETS) {
      expect(text, secret).not.toContain(secret);
      expect(metrics, secret).not.toContain(secret);
    }
    expect(metrics).not.toContain("ArmChair"); // route templates, never raw paths
    expect(metrics).toContain('asset_search_http_requests_total{route="/v1/assets/{id}",method="GET",status="200"} 2');
    expect(metrics).toContain('asset_search_searches_total{surface="api",client="other",results="no"} 3');
    expect(metrics).toContain('asset_search_searches_total{surface="mcp",client="other",results="yes"} 1');
    expect(metrics).toContain('asset_search_mcp_tool_calls_total{tool="get_asset"} 1');
    expect(metrics).toContain("asset_search_downloads_total 2");
  });

  it("serves the same body for 60 seconds, then counts again", async () => {
    const clock = manualClock();
    const { get } = await testApp({ usage: createUsage({ now: clock.now }) });
    await get("/v1/search?q=chair");
    const first = await get("/v1/stats");
    const body = await first.text();
    expect(Stats.parse(JSON.parse(body)).windows[0]!.searches).toBe(1);

    await get("/v1/search?q=rock");
    clock.advance(30_000);
    const cached = await get("/v1/stats");
    expect(await cached.text()).toBe(body);
    expect(cached.headers.get("cache-control")).toBe("public, max-age=30");

    clock.advance(30_000);
    const fresh = await get("/v1/stats");
    const stats = Stats.parse(await fresh.json());
    expect(stats.windows[0]!.searches).toBe(2);
    expect(stats.generatedAt).toBe(clock.now().toISOString());
    expect(fresh.headers.get("cache-control")).toBe("public, max-age=60");
  });

  it("reports per-source health with p50/p95 from the replayed latencies of a live source", async () => {
    // SYNTHETIC live source: Poly Haven is indexed, so no registered source is reached by a
    // search. Its answers come from the replay dispatcher with scripted delays, on fake time: each
    // tookMs is then exactly its delay.
    const synthetic = fakeSource("synthetic");
    const url = (q: string) => fakeSearchUrl("synthetic", q);
    const clock = manualClock();
    const usage = createUsage({ now: clock.now, sources: ["synthetic"] });
    const { get, replay } = await testApp({ sources: [polyhaven, synthetic], env: { SOURCE_TIMEOUT_MS: "1000" }, usage, elapsed: fakeElapsed });
    const delays = [...Array.from({ length: 17 }, (_, i) => 10 * (i + 1)), 600]; // 10 … 170, 600 ms
    for (const [i, delayMs] of delays.entries())
      replay.add({ url: url(`q${i}`), body: '{"items":[]}', headers: { "content-type": "application/json" }, delayMs });
    replay.add({ url: url("broken"), status: 500, body: "{}" });
    replay.add({ url: url("silent"), fault: "hang" });

    const before = Stats.parse(await (await get("/v1/stats")).json());
    expect(before.providers).toEqual([{ provider: "synthetic", requests: 0, ok: 0, errors: 0, timeouts: 0, okRate: null, p50Ms: null, p95Ms: null }]);

    useFakeTime();
    const report = async (q: string) => {
      const body = SearchResponse.parse(await (await get(`/v1/search?q=${q}`)).json());
      return body.providers.find((p) => p.provider === "synthetic")!;
    };
    // Every search asks its URL at fake time 0; then time moves to each answer in turn. The
    // timeout is the last, at SOURCE_TIMEOUT_MS.
    const answers = [{ q: "broken", at: 0 }, ...delays.map((at, i) => ({ q: `q${i}`, at })), { q: "silent", at: 1000 }];
    const searches = answers.map(({ q }) => report(q));
    await whenTrue("every search to ask its URL", () => answers.every(({ q }) => replay.requested.includes(url(q))));
    const reports = await inTurn(
      answers.map((a) => a.at),
      searches,
    );
    expect(reports.map((r) => [r.status, r.tookMs])).toEqual([["error", 0], ...delays.map((ms) => ["ok", ms]), ["timeout", 1000]]);

    clock.advance(60_000);
    const stats = Stats.parse(await (await get("/v1/stats")).json());
    const [health] = stats.providers;
    expect(stats.providers).toHaveLength(1);
    // 20 samples: 0 (the error), 10 … 170, 600, 1000 (the timeout). Nearest rank: p50 = 10th = the
    // 90 ms answer, p95 = 19th = the 600 ms one.
    expect(health).toEqual({ provider: "synthetic", requests: 20, ok: 18, errors: 1, timeouts: 1, okRate: 18 / 20, p50Ms: 90, p95Ms: 600 });

    const metrics = await usage.metrics.text();
    expect(metrics).toContain('asset_search_source_requests_total{source="synthetic",outcome="ok"} 18');
    expect(metrics).toContain('asset_search_source_requests_total{source="synthetic",outcome="error"} 1');
    expect(metrics).toContain('asset_search_source_requests_total{source="synthetic",outcome="timeout"} 1');
    expect(metrics).toContain('asset_search_source_latency_seconds_count{source="synthetic"} 20');
    expect(metrics).toContain('asset_search_source_latency_seconds_bucket{le="0.25",source="synthetic"} 18');
  });
});

describe("/metrics", () => {
  it("is served on its own port only, in Prometheus text format with bounded labels", async () => {
    // Every registered source this time: the live ones fail (nothing recorded for this query) and
    // are counted, and still nothing of the query, the address or the agent shows.
    const usage = createUsage({ sources: SOURCES.filter((s) => s.mode === "live").map((s) => s.id) });
    const { get } = await testApp({ env: { TRUST_PROXY: "true" }, usage });
    expect((await get(`/v1/search?q=${QUERY}`, { headers: asClient })).status).toBe(200);
    const stats = await (await get("/v1/stats", { headers: asClient })).text();
    expect(Stats.parse(JSON.parse(stats)).catalog.sources).toBe(SOURCES.length);
    for (const secret of SECRETS) expect(stats, secret).not.toContain(secret);
    await get(`/v1/nothing-here/${QUERY}`, { headers: asClient });

    metricsServer = await startMetricsServer(usage.metrics, { port: 0, host: "127.0.0.1" });
    const res = await fetch(`http://127.0.0.1:${metricsServer.port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^# HELP asset_search_searches_total /m);
    expect(text).toContain('asset_search_http_requests_total{route="other",method="GET",status="404"} 1');
    for (const secret of SECRETS) expect(text, secret).not.toContain(secret);
    expect(text).not.toContain("nothing-here");
    expect((await fetch(`http://127.0.0.1:${metricsServer.port}/`)).status).toBe(404);

    // Never on the public app.
    expect((await get("/metrics")).status).toBe(404);
  });

  it("keeps labels bounded: families, route templates, tool names", async () => {
    expect(clientFamily(AGENT)).toBe("other");
    expect(clientFamily(undefined)).toBe("other");
    expect(clientFamily("claude-code/1.0.83")).toBe("claude");
    expect(clientFamily("Claude-User (+https://support.anthropic.com/)")).toBe("claude");
    expect(clientFamily("Mozilla/5.0 (Macintosh) AppleWebKit/537.36 Claude/0.12.28 Chrome/128 Electron/32 Safari/537.36")).toBe("claude");
    expect(clientFamily("Mozilla/5.0 (Macintosh) AppleWebKit/537.36 Cursor/0.45.0 Chrome/128 Electron/32 Safari/537.36")).toBe("cursor");
    expect(clientFamily("Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Code/1.96.0 Chrome/128 Electron/32 Safari/537.36")).toBe("vscode");
    expect(clientFamily("curl/8.5.0")).toBe("curl");
    expect(clientFamily("python-httpx/0.27.0")).toBe("python");
    expect(clientFamily("node")).toBe("node");
    expect(clientFamily("Go-http-client/1.1")).toBe("go");
    expect(clientFamily(BROWSER_UA)).toBe("browser");
    expect(CLIENT_FAMILIES).toContain(clientFamily("x".repeat(10_000)));

    expect(routeTemplate("/v1/assets/polyhaven:ArmChair_01/download")).toBe("/v1/assets/{id}/download");
    expect(routeTemplate("/v1/assets/a%2Fb/files")).toBe("/v1/assets/{id}/files");
    expect(routeTemplate(`/v1/search/${QUERY}`)).toBe("other");

    const usage = createUsage();
    for (let i = 0; i < 100; i++) usage.toolCall(`tool_${i}`);
    usage.toolCall("Not A Tool Name!");
    const names = (await usage.snapshot()).tools.map((t) => t.name);
    expect(names.length).toBeLessThanOrEqual(25);
    expect(names).toContain("other");
  });

  it("keeps a bounded ring of latencies", () => {
    const ring = new LatencyRing(4);
    for (const ms of [1000, 1000, 1000, 1000, 10, 20, 30, 40]) ring.add(ms);
    expect(ring.size).toBe(4);
    expect(ring.quantiles(0.5, 0.95)).toEqual([20, 40]);
    expect(new LatencyRing().quantiles(0.5)).toEqual([null]);
  });
});

describe("OpenAPI", () => {
  it("documents GET /v1/stats with the Stats schema, rate limits and the cache header", async () => {
    const { get } = await testApp();
    const doc = (await (await get("/openapi.json")).json()) as Record<string, any>;
    const op = doc.paths["/v1/stats"].get;
    expect(op.tags).toEqual(["System"]);
    expect(op.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Stats" });
    expect(op.responses["200"].headers["Cache-Control"]).toBeDefined();
    expect(Object.keys(op.responses).sort()).toEqual(["200", "400", "401", "421", "429"]);
    expect(doc.components.schemas.Stats.properties.note.description).toMatch(/^additive:/);
  });
});
