import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { kenney } from "../../sources/kenney.ts";

// Hits the real kenney.nl through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("kenney (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("crawls every listing page and every pack page into valid packs, with their pages' tags", async () => {
    const assets = await kenney.crawl(ctx);
    expect(assets.length).toBeGreaterThan(100);
    for (const asset of assets) Asset.parse(asset);
    expect(assets.some((a) => a.type === "model")).toBe(true);
    expect(assets.filter((a) => a.createdAt).length).toBeGreaterThan(assets.length / 2);
  }, 300_000);

  it("gets Nature Kit with its direct zip", async () => {
    const details = AssetDetails.parse(await kenney.getAsset("nature-kit", ctx));
    expect(details.files[0]?.url).toMatch(/^https:\/\/kenney\.nl\/.+\.zip$/);
  });

  it("counts the catalogue", async () => {
    const census = SourceCensus.parse(await kenney.census(ctx));
    expect(census.total).toBeGreaterThan(100);
  }, 120_000);
});
