import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { threeDAssets } from "../../sources/3dassets.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real 3dassets.dev API through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("3dassets (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());
  const q = sourceQuery("tree", { limit: 5 });

  it("searches into valid assets", async () => {
    const result = await threeDAssets.search(q, ctx);
    expect(result.assets.length).toBeGreaterThan(0);
    expect(result.assets.length).toBeLessThanOrEqual(5);
    for (const asset of result.assets) Asset.parse(asset);
  });

  it("gets an asset whose GLB is a direct file", async () => {
    const first = (await threeDAssets.search(q, ctx)).assets[0];
    const details = AssetDetails.parse(await threeDAssets.getAsset(first!.nativeId, ctx));
    expect(details.files.find((f) => f.format === "glb" && !f.requiresAuth)).toBeTruthy();
  });

  it("counts the catalogue", async () => {
    const census = SourceCensus.parse(await threeDAssets.census(ctx));
    expect(census.total).toBeGreaterThan(0);
  });
});
