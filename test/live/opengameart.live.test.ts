import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { opengameart } from "../../sources/opengameart.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real OpenGameArt.org pages through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("opengameart (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("searches 3D art into valid assets with a total", async () => {
    const result = await opengameart.search(sourceQuery("tree", { types: ["model"], limit: 10 }), ctx);
    expect(result.assets.length).toBeGreaterThan(0);
    expect(result.total).toBeGreaterThan(0);
    for (const asset of result.assets) Asset.parse(asset);
  });

  it("gets Nature Kit with a direct zip, and null for an unknown page", async () => {
    const details = await opengameart.getAsset("nature-kit", ctx);
    AssetDetails.parse(details);
    expect(details!.files.some((f) => f.format === "zip" && !f.requiresAuth)).toBe(true);
    expect(details!.license?.spdx).toBe("CC0-1.0");
    expect(await opengameart.getAsset("no-such-art-zz-0000", ctx)).toBeNull();
  });

  it("counts every art type", async () => {
    const census = SourceCensus.parse(await opengameart.census(ctx));
    expect(census.total).toBeGreaterThan(10_000);
  }, 60_000);
});
