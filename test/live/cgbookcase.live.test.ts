import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { cgbookcase } from "../../sources/cgbookcase.ts";

// Hits the real cgbookcase site through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("cgbookcase (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("crawls the catalogue into valid assets", async () => {
    const assets = await cgbookcase.crawl(ctx);
    expect(assets.length).toBeGreaterThan(300);
    for (const asset of assets) Asset.parse(asset);
  }, 60_000);

  it("gets a texture with requiresAuth links", async () => {
    const details = await cgbookcase.getAsset("brick-wall-29", ctx);
    AssetDetails.parse(details);
    expect(details!.files.length).toBeGreaterThan(0);
    expect(details!.files.every((f) => f.requiresAuth)).toBe(true);
  });

  it("counts the catalogue", async () => {
    expect(SourceCensus.parse(await cgbookcase.census(ctx)).total).toBeGreaterThan(300);
  }, 60_000);
});
