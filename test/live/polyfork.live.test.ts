import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { polyfork } from "../../sources/polyfork.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real polyfork.dev API through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("polyfork (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());
  const q = sourceQuery("rock", { limit: 5 });

  it("searches into valid assets", async () => {
    const result = await polyfork.search(q, ctx);
    expect(result.assets.length).toBeGreaterThan(0);
    expect(result.assets.length).toBeLessThanOrEqual(5);
    for (const asset of result.assets) Asset.parse(asset);
  });

  it("finds free assets whose GLB is a direct file", async () => {
    const result = await polyfork.search({ ...q, free: true }, ctx);
    const first = result.assets[0];
    expect(first?.downloadable).toBe(true);
    const details = AssetDetails.parse(await polyfork.getAsset(first!.nativeId, ctx));
    expect(details.files.find((f) => f.format === "glb" && !f.requiresAuth)).toBeTruthy();
  });

  it("counts the catalogue", async () => {
    const census = SourceCensus.parse(await polyfork.census(ctx));
    expect(census.total).toBeGreaterThan(0);
  });
});
