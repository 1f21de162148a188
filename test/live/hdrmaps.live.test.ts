import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { hdrmaps } from "../../sources/hdrmaps.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real hdrmaps.com Store API through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("hdrmaps (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());
  const q = sourceQuery("sunset", { limit: 6 });

  it("searches into valid assets", async () => {
    const result = await hdrmaps.search(q, ctx);
    expect(result.assets.length).toBeGreaterThan(0);
    for (const asset of result.assets) Asset.parse(asset);
  });

  it("gets a freebie with direct EXR files", async () => {
    const result = await hdrmaps.search({ ...q, free: true }, ctx);
    const first = result.assets[0];
    expect(first?.price?.free).toBe(true);
    const details = AssetDetails.parse(await hdrmaps.getAsset(first!.nativeId, ctx));
    expect(details.files.some((f) => f.format === "exr" && !f.requiresAuth)).toBe(true);
  });

  it("counts the catalogue", async () => {
    expect(SourceCensus.parse(await hdrmaps.census(ctx)).total).toBeGreaterThan(0);
  });
});
