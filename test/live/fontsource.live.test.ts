import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { fontsource } from "../../sources/fontsource.ts";

// Hits the real Fontsource API through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("fontsource (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("crawls the catalogue into valid font assets", async () => {
    const assets = await fontsource.crawl(ctx);
    expect(assets.length).toBeGreaterThan(1500);
    for (const asset of assets) Asset.parse(asset);
    expect(assets.some((a) => a.nativeId === "roboto")).toBe(true);
  }, 60_000);

  it("gets Abel with direct woff2 files", async () => {
    const details = AssetDetails.parse(await fontsource.getAsset("abel", ctx));
    expect(details.files.some((f) => f.format === "woff2" && f.url.startsWith("https://"))).toBe(true);
    expect(await fontsource.getAsset("no-such-font-zz-0000", ctx)).toBeNull();
  });

  it("counts the catalogue", async () => {
    const census = SourceCensus.parse(await fontsource.census(ctx));
    expect(census.total).toBe(census.byType.font);
  }, 60_000);
});
