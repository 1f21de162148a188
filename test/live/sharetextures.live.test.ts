import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { sharetextures } from "../../sources/sharetextures.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real ShareTextures API through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("sharetextures (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("searches by tag and maps valid assets", async () => {
    const result = await sharetextures.search(sourceQuery("brick wall", { limit: 5 }), ctx);
    expect(result.assets.length).toBeGreaterThan(0);
    for (const asset of result.assets) Asset.parse(asset);
  });

  it("gets an item without files", async () => {
    const details = AssetDetails.parse(await sharetextures.getAsset("brick-wall-2", ctx));
    expect(details.files).toEqual([]);
  });

  it("counts the catalogue", async () => {
    expect(SourceCensus.parse(await sharetextures.census(ctx)).total).toBeGreaterThan(500);
  });
});
