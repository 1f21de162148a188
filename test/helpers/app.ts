import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type H3, toNodeHandler } from "h3";
import { AssetIndex } from "../../core/index/search-index.ts";
import type { Source } from "../../core/model/source.ts";
import { BreakerRegistry } from "../../core/search/circuit-breaker.ts";
import { buildCatalog } from "../../pipeline/catalog.ts";
import { addPoint, historyPoint } from "../../pipeline/history.ts";
import { createApp } from "../../server/app.ts";
import { createUsage, type Usage } from "../../server/stats/usage.ts";
import { SOURCES } from "../../sources/index.ts";
import { replayRuntime } from "./replay.ts";

export const NOW = new Date("2026-11-22T00:00:00Z");

/**
 * The whole app over the recordings: the index and catalog are built in memory by the indexed
 * sources' crawl and census through the replay dispatcher, as the pipeline would.
 */
export async function testApp(options: { env?: Record<string, string>; sources?: readonly Source[]; usage?: Usage; elapsed?: () => number } = {}) {
  const sources = options.sources ?? SOURCES;
  const runtime = replayRuntime({ now: NOW, env: { RATE_LIMIT_PER_MINUTE: "0", ...options.env }, ...(options.elapsed ? { elapsed: options.elapsed } : {}) });
  const ctx = runtime.context();
  // As in the pipeline, a source whose recordings do not cover its crawl or census is left out.
  const settled = <T>(results: PromiseSettledResult<T>[]) => results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  const indexed = sources.filter((s) => s.mode === "indexed");
  const assets = settled(await Promise.allSettled(indexed.map((s) => s.crawl(ctx)))).flat();
  const censuses = settled(await Promise.allSettled(sources.flatMap((s) => (s.census ? [s.census(ctx)] : []))));
  const catalog = buildCatalog(censuses, sources, NOW.toISOString());
  const published = { index: AssetIndex.build(assets), catalog, history: addPoint({ points: [] }, historyPoint(catalog)) };
  runtime.replay.requested.length = 0;
  const usage = options.usage ?? createUsage({ sources: sources.filter((s) => s.mode === "live").map((s) => s.id) });
  const deps = { runtime, sources, published, breakers: new BreakerRegistry(), usage };
  const app = createApp(deps);
  const get = (path: string, init?: RequestInit) => app.fetch(new Request(`http://localhost${path}`, init));
  return { app, deps, runtime, replay: runtime.replay, published, get, usage };
}

/** Serves `app` on 127.0.0.1 on a free port, over a real socket; `close` ends every connection. */
export async function listen(app: H3): Promise<{ url: string; port: number; close: () => Promise<void> }> {
  const server = createServer(toNodeHandler(app));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
