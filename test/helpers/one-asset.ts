import type { HttpClient } from "../../core/http/types.ts";
import { AssetIndex } from "../../core/index/search-index.ts";
import type { Source } from "../../core/model/source.ts";
import type { AssetDetails } from "../../core/schemas/index.ts";
import { BreakerRegistry } from "../../core/search/circuit-breaker.ts";
import { createApp } from "../../server/app.ts";
import { createUsage } from "../../server/stats/usage.ts";
import { fakeSource } from "./fake-source.ts";
import { replayRuntime } from "./replay.ts";

/** SYNTHETIC details of a model (made by the test, never recorded): the required fields, plus `extra`. */
export const syntheticDetails = (provider: string, nativeId: string, extra: Partial<AssetDetails> = {}): AssetDetails => ({
  id: `${provider}:${nativeId}`,
  provider,
  nativeId,
  title: nativeId,
  type: "model",
  tags: [],
  url: `https://${provider}.example/a/${nativeId}`,
  downloadable: true,
  files: [],
  ...extra,
});

/**
 * The whole app with one synthetic source, the asset's provider, whose only asset is `details`,
 * and an empty index. Upstream requests go to the replay dispatcher, or to `http` when given (a
 * real Agent with a test DNS lookup, or one allowed to reach a loopback upstream).
 */
export function oneAssetApp(details: AssetDetails, options: { http?: HttpClient; env?: Record<string, string>; source?: Partial<Source> } = {}) {
  const runtime = replayRuntime({ env: { RATE_LIMIT_PER_MINUTE: "0", ...options.env } });
  const source = { ...fakeSource(details.provider), getAsset: async (id: string) => (id === details.nativeId ? details : null), ...options.source } as Source;
  const usage = createUsage({ sources: [source.id] });
  const published = { index: AssetIndex.empty(), catalog: undefined, history: { points: [] } };
  const app = createApp({
    runtime: options.http ? { ...runtime, http: options.http } : runtime,
    sources: [source],
    published,
    breakers: new BreakerRegistry(),
    usage,
  });
  const get = (path: string, init?: RequestInit) => app.fetch(new Request(`http://localhost${path}`, init));
  return { app, get, replay: runtime.replay, usage };
}
