import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails } from "../../core/schemas/index.ts";
import { iconify } from "../../sources/iconify.ts";

// Hits the real Iconify API and jsDelivr. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("iconify (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("crawls the icon sets and gets Pixelarticons with its SVGs", async () => {
    const assets = await iconify.crawl(ctx);
    expect(assets.length).toBeGreaterThan(150);
    for (const asset of assets) Asset.parse(asset);
    const details = AssetDetails.parse(await iconify.getAsset("pixelarticons", ctx));
    expect(details.files.filter((f) => f.format === "svg").length).toBeGreaterThan(400);
  }, 60_000);
});
