import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { selectFiles } from "../../core/model/selection.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { polyhaven } from "../../sources/polyhaven.ts";

// Hits the real Poly Haven API through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("polyhaven (live)", () => {
  // Never in replay mode here, whatever the environment says.
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("crawls the three listings into valid assets of all three types", async () => {
    const assets = await polyhaven.crawl(ctx);
    expect(assets.length).toBeGreaterThan(1000);
    for (const asset of assets) Asset.parse(asset);
    for (const type of ["model", "texture", "hdri"]) expect(assets.some((a) => a.type === type)).toBe(true);
    expect(assets.find((a) => a.nativeId === "ArmChair_01")?.type).toBe("model");
  }, 60_000);

  it("gets ArmChair_01 with a 2k glTF and its companions", async () => {
    const details = await polyhaven.getAsset("ArmChair_01", ctx);
    expect(details).not.toBeNull();
    AssetDetails.parse(details);
    const [gltf] = selectFiles(details!, { resolution: "2k" });
    expect(gltf?.format).toBe("gltf");
    expect(gltf?.includes?.some((i) => i.path.endsWith(".bin"))).toBe(true);
  });

  it("answers null for an unknown asset", async () => {
    expect(await polyhaven.getAsset("no_such_asset_zz_0000", ctx)).toBeNull();
  });

  it("counts the catalogue", async () => {
    const census = SourceCensus.parse(await polyhaven.census(ctx));
    expect(census.total).toBe(census.byType.model! + census.byType.texture! + census.byType.hdri!);
    expect(census.downloads).toBeGreaterThan(0);
  }, 60_000);
});
