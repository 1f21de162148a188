import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { gpuopen } from "../../sources/gpuopen.ts";

// Hits the real GPUOpen MaterialX Library API through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("gpuopen (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("crawls every page into valid assets", async () => {
    const assets = await gpuopen.crawl(ctx);
    expect(assets.length).toBeGreaterThan(400);
    for (const asset of assets) Asset.parse(asset);
  }, 60_000);

  it("gets a material with its package downloads", async () => {
    // Indigo Palm Wallpaper, in the 2024 recordings.
    const details = await gpuopen.getAsset("0dc3d4af-569e-4cde-98af-15968255779e", ctx);
    AssetDetails.parse(details);
    expect(details!.files.length).toBeGreaterThan(0);
    for (const file of details!.files) expect(file.url).toMatch(/^https:\/\/api\.matlib\.gpuopen\.com\/api\/packages\/[0-9a-f-]{36}\/download$/);
  }, 60_000);

  it("counts the catalogue", async () => {
    expect(SourceCensus.parse(await gpuopen.census(ctx)).total).toBeGreaterThan(400);
  }, 60_000);
});
