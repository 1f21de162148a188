import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { quaternius } from "../../sources/quaternius.ts";

// Hits the real quaternius.com through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("quaternius (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("crawls the home page and every pack page into valid packs, with their licences", async () => {
    const assets = await quaternius.crawl(ctx);
    expect(assets.length).toBeGreaterThan(20);
    for (const asset of assets) Asset.parse(asset);
    expect(assets.filter((a) => a.license).length).toBeGreaterThan(assets.length / 2);
  }, 120_000);

  it("gets Ultimate Nature Pack with a licence and a download link", async () => {
    const details = AssetDetails.parse(await quaternius.getAsset("ultimatenature", ctx));
    expect(details.license?.name).toBeTruthy();
    expect(details.files.every((f) => f.requiresAuth)).toBe(true);
  });

  it("counts the catalogue", async () => {
    expect(SourceCensus.parse(await quaternius.census(ctx)).total).toBeGreaterThan(20);
  });
});
