import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { ambientcg } from "../../sources/ambientcg.ts";

// Hits the real ambientCG API through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("ambientcg (live)", () => {
  // Never in replay mode here, whatever the environment says.
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("crawls the downloads CSV into valid assets of its types; the thumbnail derived from an id is the one API v3 gives", async () => {
    const assets = await ambientcg.crawl(ctx);
    expect(assets.length).toBeGreaterThan(2000);
    for (const asset of assets) Asset.parse(asset);
    for (const type of ["material", "hdri", "model"]) expect(assets.some((a) => a.type === type)).toBe(true);
    const wood = assets.find((a) => a.nativeId === "Wood094");
    expect(wood).toMatchObject({ title: "Wood 094", type: "material", url: "https://ambientcg.com/a/Wood094" });
    const details = await ambientcg.getAsset("Wood094", ctx);
    expect(wood!.thumbnailUrl).toBe(details!.thumbnailUrl);
  }, 60_000);

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
