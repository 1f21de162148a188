import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { blenderkit } from "../../sources/blenderkit.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real BlenderKit API through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("blenderkit (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("searches free models and resolves a free asset's files to signed URLs", async () => {
    const res = await blenderkit.search(sourceQuery("chair", { types: ["model"], free: true, limit: 5 }), ctx);
    expect(res.assets.length).toBeGreaterThan(0);
    for (const asset of res.assets) {
      Asset.parse(asset);
      expect(asset.price?.free).toBe(true);
    }
    const details = await blenderkit.getAsset(res.assets[0]!.nativeId, ctx);
    AssetDetails.parse(details);
    expect(details!.files.some((f) => !f.requiresAuth && f.url.startsWith("https://"))).toBe(true);
  }, 30_000);

  it("counts", async () => {
    const census = SourceCensus.parse(await blenderkit.census(ctx));
    expect(census.total).toBeGreaterThan(census.free ?? 0);
  }, 30_000);
});
