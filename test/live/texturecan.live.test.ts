import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { texturecan } from "../../sources/texturecan.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real TextureCan site through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("texturecan (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("searches and maps valid assets", async () => {
    const result = await texturecan.search(sourceQuery("wood", { limit: 5 }), ctx);
    expect(result.assets.length).toBeGreaterThan(0);
    for (const asset of result.assets) Asset.parse(asset);
  });

  it("gets a texture with direct zip links", async () => {
    const details = AssetDetails.parse(await texturecan.getAsset("591", ctx));
    expect(details.files.some((f) => f.resolution === "2k")).toBe(true);
  });

  it("counts the models listing", async () => {
    expect(SourceCensus.parse(await texturecan.census(ctx)).total).toBeGreaterThan(0);
  });
});
