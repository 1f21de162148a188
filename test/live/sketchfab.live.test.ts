import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { sketchfab } from "../../sources/sketchfab.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real Sketchfab Data API through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("sketchfab (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("searches downloadable CC0 models", async () => {
    const res = await sketchfab.search(sourceQuery("tree", { types: ["model"], limit: 5 }), ctx);
    expect(res.assets.length).toBeGreaterThan(0);
    expect(res.assets.length).toBeLessThanOrEqual(5);
    for (const asset of res.assets) {
      Asset.parse(asset);
      expect(asset.license?.spdx).toBe("CC0-1.0");
      expect(asset.downloadable).toBe(false);
    }
    const details = await sketchfab.getAsset(res.assets[0]!.nativeId, ctx);
    AssetDetails.parse(details);
    expect(details!.files.every((f) => f.requiresAuth)).toBe(true);
  });

  it("counts", async () => {
    const census = SourceCensus.parse(await sketchfab.census(ctx));
    expect(census.total).toBeGreaterThan(0);
  });
});
