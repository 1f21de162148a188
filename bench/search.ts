import { once } from "node:events";
import { createServer, type RequestListener } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { Worker } from "node:worker_threads";
import autocannon from "autocannon";
import type { H3 } from "h3";
import { toNodeHandler } from "h3";
import { request } from "undici";
import { loadConfig } from "../core/config.ts";
import { ReplayDispatcher } from "../core/http/replay.ts";
import { createRuntime } from "../core/model/runtime.ts";
import { SearchParams } from "../core/model/search-params.ts";
import type { Source } from "../core/model/source.ts";
import { loadPublished } from "../core/publication/published.ts";
import { BreakerRegistry } from "../core/search/circuit-breaker.ts";
import { type SearchDeps, searchRanked } from "../core/search/search.ts";
import { createApp } from "../server/app.ts";
import { searchJson } from "../server/search-json.ts";
import { createUsage } from "../server/stats/usage.ts";
import { SOURCES } from "../sources/index.ts";
import { readEvents } from "../test/helpers/event-stream.ts";
import { fakeSearchUrl, fakeSource } from "../test/helpers/fake-source.ts";
import { QUERIES } from "./queries.ts";
import { median } from "./stats.ts";

/** The indexed sources only, so a search never leaves the process: what the index and the ranking cost. */
const INDEXED = SOURCES.filter((s) => s.mode === "indexed");

async function listen(app: H3 | RequestListener): Promise<{ base: string; close: () => void }> {
  const server = createServer(typeof app === "function" ? app : toNodeHandler(app));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, close: () => server.close() };
}

async function timeGet(url: string): Promise<number> {
  const started = performance.now();
  const res = await request(url);
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
  return performance.now() - started;
}

function appWith(sources: readonly Source[], replay: ReplayDispatcher, env: Record<string, string> = {}) {
  const runtime = createRuntime(loadConfig({ RATE_LIMIT_PER_MINUTE: "0", HTTP_CACHE_TTL_MS: "0", ...env }), { replay });
  return createApp({ runtime, sources, published: loadPublished("data"), breakers: new BreakerRegistry(), usage: createUsage() });
}

const searchPath = (q: string) => `/v1/search?q=${encodeURIComponent(q)}`;

/**
 * The client of serverOverhead, in a worker thread: a real client runs on another machine, so its
 * own work (sending, reading the answer) must not share the event loop of the server it measures.
 * Each URL posted to it is answered with the milliseconds from sending the request to the whole
 * answer read as text, or with an error.
 */
const CLIENT_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { request } = require(workerData.undici);
parentPort.on("message", async (url) => {
  const started = performance.now();
  const res = await request(url);
  await res.body.text();
  parentPort.postMessage(res.statusCode === 200 ? performance.now() - started : url + " answered " + res.statusCode);
});
`;

function workerClient(): { get: (url: string) => Promise<number>; close: () => Promise<number> } {
  const worker = new Worker(CLIENT_WORKER, { eval: true, workerData: { undici: createRequire(import.meta.url).resolve("undici") } });
  return {
    async get(url) {
      worker.postMessage(url);
      const [answer] = (await once(worker, "message")) as [number | string];
      if (typeof answer === "string") throw new Error(answer);
      return answer;
    },
    close: () => worker.terminate(),
  };
}

/**
 * The floor of serverOverhead: node:http alone, without the app's framework, middleware or
 * counting, answering `?q=` with the same search and the same bytes. What HTTP itself costs on
 * this machine (loopback, the client, node:http), whatever the app does.
 */
function bareSearch(deps: SearchDeps): RequestListener {
  return async (req, res) => {
    const q = new URL(req.url ?? "/", "http://127.0.0.1").searchParams.get("q") ?? "";
    const body = searchJson(await searchRanked(SearchParams.parse({ q }), deps));
    res.writeHead(200, { "content-type": "application/json;charset=UTF-8", "content-length": body.length });
    res.end(body);
  };
}

/**
 * Index-only search through HTTP versus the same search (index query, merge, ranking) called in
 * process, one query of the mix after the other; beside them the floor (bareSearch). Each side has
 * its own copy of the index, and the sides take turns at going first: a later one runs the query
 * an earlier one has just run, with the code still warm, which would otherwise always favour the
 * same side.
 */
async function serverOverhead(rounds: number) {
  const runtime = createRuntime(loadConfig({ RATE_LIMIT_PER_MINUTE: "0" }), { replay: new ReplayDispatcher() });
  const deps = () => ({ sources: INDEXED, index: loadPublished("data").index, runtime, breakers: new BreakerRegistry() });
  const inProcessDeps = deps();
  const server = await listen(appWith(INDEXED, new ReplayDispatcher()));
  const bare = await listen(bareSearch(deps()));
  const client = workerClient();
  const http: number[] = [];
  const floor: number[] = [];
  const inProcess: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const q = QUERIES[i % QUERIES.length]!;
    const overHttp = async () => http.push(await client.get(`${server.base}${searchPath(q)}`));
    const overBare = async () => floor.push(await client.get(`${bare.base}/?q=${encodeURIComponent(q)}`));
    const called = async () => {
      const started = performance.now();
      await searchRanked(SearchParams.parse({ q }), inProcessDeps);
      inProcess.push(performance.now() - started);
    };
    const sides = [overHttp, overBare, called];
    for (let k = 0; k < sides.length; k++) await sides[(i + k) % sides.length]!();
  }
  await client.close();
  server.close();
  bare.close();
  const inProcessMedianMs = median(inProcess);
  return {
    httpMedianMs: median(http),
    floorMedianMs: median(floor),
    inProcessMedianMs,
    ratio: median(http) / inProcessMedianMs,
    floorRatio: median(floor) / inProcessMedianMs,
  };
}

/** Five live sources, each delayed D ms by replay: end-to-end median divided by D (1 = perfectly parallel). */
async function fanOut(delayMs: number, rounds: number) {
  const ids = ["alpha", "beta", "gamma", "delta", "epsilon"];
  const replay = new ReplayDispatcher();
  for (const id of ids) {
    for (let i = 0; i < rounds; i++) {
      replay.add({ url: fakeSearchUrl(id, `tree${i}`), body: JSON.stringify({ items: [{ slug: `t${i}`, name: `Tree ${i}` }] }), delayMs });
    }
  }
  const server = await listen(appWith(ids.map(fakeSource), replay, { SOURCE_TIMEOUT_MS: String(delayMs * 10) }));
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) times.push(await timeGet(`${server.base}/v1/search?q=tree${i}`));
  server.close();
  return { sources: ids.length, delayMs, medianMs: median(times), ratio: median(times) / delayMs };
}

/**
 * Results as they arrive: the indexed sources plus one live source delayed D ms by replay, asked
 * over the event stream; per search the time to the first event (the index's results) and to the
 * last (the final answer), sequentially over the query mix.
 */
export async function firstResults(delayMs: number, rounds: number) {
  const replay = new ReplayDispatcher();
  const queries = Array.from({ length: rounds }, (_, i) => `${QUERIES[i % QUERIES.length]} ${i}`);
  for (const q of queries) replay.add({ url: fakeSearchUrl("slow", q), body: JSON.stringify({ items: [{ slug: "s", name: q }] }), delayMs });
  const server = await listen(appWith([...INDEXED, fakeSource("slow")], replay, { SOURCE_TIMEOUT_MS: String(delayMs * 10) }));
  const first: number[] = [];
  const full: number[] = [];
  for (const q of queries) {
    const started = performance.now();
    const res = await fetch(`${server.base}${searchPath(q)}`, { headers: { accept: "text/event-stream" } });
    const events: { event: string; at: number }[] = [];
    for await (const e of readEvents(res.body!)) events.push(e);
    if (events[0]?.event !== "index" || events.at(-1)?.event !== "done") throw new Error(`${q}: events ${events.map((e) => e.event).join(", ")}`);
    first.push(events[0].at - started);
    full.push(events.at(-1)!.at - started);
  }
  server.close();
  return { delayMs, rounds, firstMedianMs: median(first), fullMedianMs: median(full), ratio: median(first) / median(full) };
}

/** Requests per second of index-only searches (the query mix, in turn) on loopback, one server process. */
async function throughput(seconds: number) {
  const server = await listen(appWith(INDEXED, new ReplayDispatcher()));
  const result = await autocannon({
    url: server.base,
    requests: QUERIES.map((q) => ({ method: "GET", path: searchPath(q) })),
    connections: 10,
    duration: seconds,
  });
  server.close();
  return { requestsPerSecond: Math.round(result.requests.average), p99Ms: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

export async function benchSearch() {
  return {
    serverOverhead: await serverOverhead(1000),
    fanOut: await fanOut(200, 9),
    firstResults: await firstResults(2000, 7),
    throughput: await throughput(5),
  };
}
