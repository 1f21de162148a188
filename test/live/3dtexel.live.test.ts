import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { threeDTexel } from "../../sources/3dtexel.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real 3dtexel.com public API through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("3dtexel (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());
  const q = sourceQuery("brick", { limit: 5 });

  it("searches into valid assets", async () => {
    const result = await threeDTexel.search(q, ctx);
    expect(result.assets.length).toBeGreaterThan(0);
    expect(result.assets.length).toBeLessThanOrEqual(5);
    for (const asset of result.assets) Asset.parse(asset);
  });

  it("searches one library with the type filter", async () => {
    const result = await threeDTexel.search({ ...q, types: ["material"], free: true }, ctx);
    expect(result.assets.length).toBeGreaterThan(0);
    for (const asset of result.assets) expect(Asset.parse(asset)).toMatchObject({ type: "material", price: { free: true } });
  });

  it("gets an asset whose file is the product page (an account is needed)", async () => {
    const first = (await threeDTexel.search(q, ctx)).assets[0];
    const details = AssetDetails.parse(await threeDTexel.getAsset(first!.nativeId, ctx));
    expect(details.files.every((f) => f.requiresAuth)).toBe(true);
  });

  it("counts the catalogue", async () => {
    const census = SourceCensus.parse(await threeDTexel.census(ctx));
    expect(census.total).toBeGreaterThan(0);
  });
});
