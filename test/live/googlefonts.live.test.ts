import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails } from "../../core/schemas/index.ts";
import { googlefonts } from "../../sources/googlefonts.ts";

// Hits the real Google Fonts API. Runs only with LIVE=1 and GOOGLE_FONTS_API_KEY set.
describe.runIf(process.env.LIVE === "1" && Boolean(process.env.GOOGLE_FONTS_API_KEY))("googlefonts (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("crawls every family into valid font assets", async () => {
    const assets = await googlefonts.crawl(ctx);
    expect(assets.length).toBeGreaterThan(1400);
    for (const asset of assets) Asset.parse(asset);
  }, 60_000);

  it("gets Roboto with TTF files", async () => {
    const details = AssetDetails.parse(await googlefonts.getAsset("roboto", ctx));
    expect(details.files[0]?.format).toBe("ttf");
  }, 60_000);
});
