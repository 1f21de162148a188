import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { threeDTextures } from "../../sources/3dtextures.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real 3DTextures WordPress API through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("3dtextures (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("searches and maps valid assets", async () => {
    const result = await threeDTextures.search(sourceQuery("wood", { limit: 5 }), ctx);
    expect(result.assets.length).toBeGreaterThan(0);
    for (const asset of result.assets) Asset.parse(asset);
  });

  it("gets a post with its download links", async () => {
    const details = AssetDetails.parse(await threeDTextures.getAsset("wood-tiles-005", ctx));
    expect(details.files.every((f) => f.requiresAuth)).toBe(true);
  });

  it("counts the catalogue", async () => {
    expect(SourceCensus.parse(await threeDTextures.census(ctx)).total).toBeGreaterThan(50);
  }, 60_000);
});
