/**
 * GET /v1/search with `Accept: text/event-stream` (server/routes/search-stream.ts): the events of
 * core/schemas/search-stream.ts in order, with one indexed fake source and live fakes answered by
 * the replay dispatcher (one of them held until the test releases it), against the JSON answers of
 * the same searches.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LiveSource } from "../core/model/source.ts";
import { SearchResponse, SearchStreamEvent, SearchStreamIndex, SearchStreamSource } from "../core/schemas/index.ts";
import { createUsage } from "../server/stats/usage.ts";
import { listen, testApp } from "./helpers/app.ts";
import { allEvents, readEvents, type StreamEvent } from "./helpers/event-stream.ts";
import { fakeIndexedSource, fakeSearchUrl, fakeSource, heldSource } from "./helpers/fake-source.ts";
import { syntheticAsset } from "./helpers/synthetic-asset.ts";

const SSE = { accept: "text/event-stream" };
const items = (...names: string[]) => JSON.stringify({ items: names.map((n) => ({ slug: n.toLowerCase().replace(/ /g, "-"), name: n })) });

/**
 * The indexed `shelf`, the live `quick` and `slow`; with `hold`, `slow` answers a query only once
 * `release` lets it. `signals`: every signal `slow` is asked with.
 */
async function setup(options: { env?: Record<string, string>; hold?: boolean } = {}) {
  const signals: (AbortSignal | undefined)[] = [];
  const held = heldSource("slow");
  const slow: LiveSource = {
    ...held.source,
    search: (q, ctx) => {
      signals.push(ctx.signal);
      return held.source.search(q, ctx);
    },
  };
  const shelf = fakeIndexedSource("shelf", {
    crawl: async () => [
      syntheticAsset("shelf", "oak-tree", { title: "Oak Tree", tags: ["tree"] }),
      syntheticAsset("shelf", "tree-stump", { title: "Tree Stump" }),
      syntheticAsset("shelf", "rock", { title: "Rock" }),
    ],
  });
  const usage = createUsage({ sources: ["quick", "slow"] });
  const app = await testApp({ sources: [shelf, fakeSource("quick"), slow], usage, env: options.env });
  for (const q of ["tree", "stump"]) {
    app.replay.add({ url: fakeSearchUrl("quick", q), body: items("Pine Tree", "Tree House") });
    app.replay.add({ url: fakeSearchUrl("slow", q), body: items("Palm Tree") });
    if (!options.hold) held.release(q);
  }
  return { ...app, usage, signals, release: held.release };
}

/** tookMs is a measurement: the same search twice differs only there. */
const untimed = <T>(value: T): T => JSON.parse(JSON.stringify(value, (k, v) => (k === "tookMs" ? 0 : v)));

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe("GET /v1/search as an event stream", () => {
  it("sends the index results first, then each live source as it answers, then the final ranking", async () => {
    const { get, release } = await setup({ hold: true });
    const res = await get("/v1/search?q=tree", { headers: SSE });
    const stream = readEvents(res.body!);
    const next = async () => (await stream.next()).value!;
    // The index's event and quick's come while slow is still searching: each part is sent as it comes.
    const [index, quick] = [await next(), await next()];
    release("tree");
    const events = [index, quick];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => SearchStreamEvent.parse({ event: e.event, data: e.data }).event)).toEqual(["index", "source", "source", "done"]);
    const [, , slow, done] = events as [StreamEvent, StreamEvent, StreamEvent, StreamEvent];

    // The index event is the answer of the index alone: the same search asking only the indexed source.
    const indexOnly = SearchResponse.parse(await (await get("/v1/search?q=tree&providers=shelf")).json());
    expect(untimed(SearchStreamIndex.parse(index.data))).toEqual(
      untimed({ results: indexOnly.results, providers: indexOnly.providers, pending: ["quick", "slow"] }),
    );
    expect(indexOnly.results.map((r) => r.id)).toEqual(["shelf:oak-tree", "shelf:tree-stump"]);

    // Each source event is that source's answer ranked alone, with the line the final answer holds.
    const alone = async (id: string) => SearchResponse.parse(await (await get(`/v1/search?q=tree&providers=${id}`)).json());
    for (const [event, id] of [
      [quick, "quick"],
      [slow, "slow"],
    ] as const) {
      const own = await alone(id);
      expect(untimed(SearchStreamSource.parse(event.data))).toEqual(untimed({ provider: own.providers[0], results: own.results }));
    }
    expect(SearchStreamSource.parse(quick.data).results.map((r) => r.title)).toEqual(["Pine Tree", "Tree House"]);
    expect(untimed(SearchStreamSource.parse(slow.data).provider)).toEqual({ provider: "slow", name: "Fake slow", status: "ok", count: 1, total: 1, tookMs: 0 });
    expect(
      SearchResponse.parse(done.data)
        .results.map((r) => r.provider)
        .sort(),
    ).toEqual(["quick", "quick", "shelf", "shelf", "slow"]);
  });

  it("ends with the same answer the JSON route gives, facets included", async () => {
    const { get } = await setup();
    const path = "/v1/search?q=tree&facets=true&limit=3";
    const events = await allEvents(await get(path, { headers: SSE }));
    const done = events.at(-1)!;
    expect(done.event).toBe("done");
    const json = await (await get(path)).json();
    expect(untimed(SearchResponse.parse(done.data))).toEqual(untimed(json));
    expect(json.facets.total).toBe(5); // two index hits and three live listings
  });

  it("answers as an uncached event stream, and keeps JSON for every other Accept", async () => {
    const { get } = await setup();
    const res = await get("/v1/search?q=tree", { headers: SSE });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("cache-control")).toMatch(/no-store/);
    expect(res.headers.get("cache-control")).toMatch(/no-cache/);
    expect(res.headers.get("vary")).toMatch(/accept/i);
    await allEvents(res);
    for (const accept of [undefined, "application/json", "*/*", "application/json, text/event-stream", "text/event-stream;q=0"]) {
      const plain = await get("/v1/search?q=tree", accept ? { headers: { accept } } : {});
      expect(plain.headers.get("content-type"), accept).toMatch(/^application\/json/);
      expect(plain.headers.get("vary"), accept).toMatch(/accept/i);
      SearchResponse.parse(await plain.json());
    }
  });

  it.each([
    ["limit=0", "limit must be a whole number from 1 to 100, got '0'"],
    ["providers=nosuchsite", "unknown source 'nosuchsite'; see /v1/providers for the ids"],
  ])("answers %s with a 400 JSON error before any stream", async (query, message) => {
    const { get, replay } = await setup();
    const res = await get(`/v1/search?q=tree&${query}`, { headers: SSE });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toEqual({ error: message });
    expect(replay.requested).toEqual([]);
  });

  it("aborts the live sources' requests when the client goes away mid-stream", async () => {
    // The slow source is never released, and its timeout is out of reach: only the client's leaving ends it.
    const { app, signals, usage } = await setup({ hold: true, env: { SOURCE_TIMEOUT_MS: "20000", SEARCH_DEADLINE_MS: "20000" } });
    const server = await listen(app);
    close = server.close;
    const client = new AbortController();
    const res = await fetch(`${server.url}/v1/search?q=tree`, { headers: SSE, signal: client.signal });
    const events = readEvents(res.body!);
    expect((await events.next()).value?.event).toBe("index");
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(false);
    client.abort();
    await vi.waitFor(() => expect(signals[0]!.aborted).toBe(true), { timeout: 2_000 });
    // The search still counts once (the client had its index results); the slow source's cut-off
    // line says nothing about its health and is not counted, while the quick one's is.
    await vi.waitFor(async () => expect((await usage.snapshot()).window.searches).toBe(1), { timeout: 2_000 });
    const health = (await usage.snapshot()).providers;
    expect(health.find((p) => p.provider === "quick")?.requests).toBe(1);
    expect(health.find((p) => p.provider === "slow")?.requests ?? 0).toBe(0);
  });

  it("counts one search and takes one rate-limit point per stream", async () => {
    const { get, usage } = await setup({ env: { RATE_LIMIT_PER_MINUTE: "5" } });
    const res = await get("/v1/search?q=tree", { headers: SSE });
    expect(res.headers.get("ratelimit-remaining")).toBe("4");
    await allEvents(res);
    const { window } = await usage.snapshot();
    expect(window.searches).toBe(1);
    expect(window.searchesWithResults).toBe(1);
    expect(window.bySurface).toEqual({ web: 0, api: 1, mcp: 0 });
    const next = await get("/v1/search?q=tree");
    expect(next.headers.get("ratelimit-remaining")).toBe("3");
  });

  it("refuses a stream without the configured key with the JSON 401", async () => {
    const { get } = await setup({ env: { ASSET_SERVER_API_KEY: "secret" } });
    const res = await get("/v1/search?q=tree", { headers: SSE });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const keyed = await get("/v1/search?q=tree", { headers: { ...SSE, "x-api-key": "secret" } });
    expect((await allEvents(keyed)).map((e) => e.event)).toEqual(["index", "source", "source", "done"]);
  });
});
