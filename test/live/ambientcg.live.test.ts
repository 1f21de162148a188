import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { ambientcg } from "../../sources/ambientcg.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real ambientCG API through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("ambientcg (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());
  const query = sourceQuery("wood", { limit: 5 });

  it("searches and maps valid assets", async () => {
    const result = await ambientcg.search(query, ctx);
    expect(result.assets.length).toBeGreaterThan(0);
    for (const asset of result.assets) Asset.parse(asset);
    expect(result.total).toBeGreaterThan(result.assets.length);
  });

  it("filters by type upstream", async () => {
    const result = await ambientcg.search({ ...query, types: ["hdri"] }, ctx);
    expect(result.assets.length).toBeGreaterThan(0);
    expect(result.assets.every((a) => a.type === "hdri")).toBe(true);
  });

  it("gets an asset with /get?file= archives, and null for an unknown id", async () => {
    const details = await ambientcg.getAsset("Wood094", ctx);
    AssetDetails.parse(details);
    expect(details!.files.every((f) => f.url.startsWith("https://ambientcg.com/get?file="))).toBe(true);
    expect(await ambientcg.getAsset("NoSuchAsset999", ctx)).toBeNull();
  });

  it("counts the catalogue", async () => {
    const census = SourceCensus.parse(await ambientcg.census(ctx));
    expect(census.total).toBeGreaterThan(2000);
  }, 60_000);
});
