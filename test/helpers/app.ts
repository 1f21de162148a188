import { BreakerRegistry } from "../../core/circuit-breaker.ts";
import { AssetIndex } from "../../core/search-index.ts";
import type { Source } from "../../core/source.ts";
import { buildCatalog } from "../../pipeline/catalog.ts";
import { addPoint, historyPoint } from "../../pipeline/history.ts";
import { createApp } from "../../server/app.ts";
import { SOURCES } from "../../sources/index.ts";
import { replayRuntime } from "./replay.ts";

export const NOW = new Date("2026-11-22T00:00:00Z");

/**
 * The whole app over the recordings: the index and catalog are built in memory by the indexed
 * sources' crawl and census through the replay dispatcher, as the pipeline would.
 */
export async function testApp(options: { env?: Record<string, string>; sources?: readonly Source[] } = {}) {
  const sources = options.sources ?? SOURCES;
  const runtime = replayRuntime({ now: NOW, env: { RATE_LIMIT_PER_MINUTE: "0", ...options.env } });
  const ctx = runtime.context();
  const assets = (await Promise.all(sources.filter((s) => s.mode === "indexed" && s.crawl).map((s) => s.crawl!(ctx)))).flat();
  const censuses = await Promise.all(sources.filter((s) => s.census).map((s) => s.census!(ctx)));
  const catalog = buildCatalog(censuses, sources, NOW.toISOString());
  const published = { index: AssetIndex.build(assets), catalog, history: addPoint({ points: [] }, historyPoint(catalog)) };
  runtime.replay.requested.length = 0;
  const app = createApp({ runtime, sources, published, breakers: new BreakerRegistry() });
  const get = (path: string, init?: RequestInit) => app.fetch(new Request(`http://localhost${path}`, init));
  return { app, runtime, replay: runtime.replay, published, get };
}
