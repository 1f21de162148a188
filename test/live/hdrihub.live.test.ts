import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { hdrihub } from "../../sources/hdrihub.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real www.hdri-hub.com through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("hdrihub (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("searches into valid assets", async () => {
    const result = await hdrihub.search(sourceQuery("garage", { limit: 10 }), ctx);
    expect(result.assets.length).toBeGreaterThan(0);
    for (const asset of result.assets) Asset.parse(asset);
  });

  it("gets a product with purchase links per resolution", async () => {
    const result = await hdrihub.search(sourceQuery("sky", { types: ["hdri"], limit: 1 }), ctx);
    const details = AssetDetails.parse(await hdrihub.getAsset(result.assets[0]!.nativeId, ctx));
    expect(details.files.every((f) => f.requiresAuth)).toBe(true);
  });

  it("counts the HDRI category", async () => {
    expect(SourceCensus.parse(await hdrihub.census(ctx)).total).toBeGreaterThan(0);
  });
});
