import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { threeDAssetsOne } from "../../sources/3dassetsone.ts";
import { sourceQuery } from "../helpers/query.ts";

/** The sites of the creators sources/3dassetsone.ts leaves out. */
const COVERED_HOSTS = /(^|\.)(ambientcg\.com|polyhaven\.com|sharetextures\.com|3dtextures\.me|cgbookcase\.com|texturecan\.com|gpuopen\.com|textures\.com)$/i;

// Hits the real 3dassets.one API through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("3dassetsone (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("searches into valid assets of creators no source of ours lists", async () => {
    const result = await threeDAssetsOne.search(sourceQuery("wood", { limit: 5 }), ctx);
    expect(result.assets.length).toBeGreaterThan(0);
    expect(result.assets.length).toBeLessThanOrEqual(5);
    for (const asset of result.assets) {
      Asset.parse(asset);
      expect(new URL(asset.url).hostname).not.toMatch(COVERED_HOSTS);
    }
  });

  it("looks a result up by its id", async () => {
    const { assets } = await threeDAssetsOne.search(sourceQuery("", { types: ["hdri"], limit: 1 }), ctx);
    const details = AssetDetails.parse(await threeDAssetsOne.getAsset(assets[0]!.nativeId, ctx));
    expect(details).toMatchObject({ id: assets[0]!.id, url: assets[0]!.url, files: [] });
  });

  it("counts the assets of the creators it searches, page by page", async () => {
    const census = SourceCensus.parse(await threeDAssetsOne.census(ctx));
    expect(census.total).toBeGreaterThan(0);
    expect(census.atLeast).toBeUndefined();
  });
});
