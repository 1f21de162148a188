import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails } from "../../core/schemas/index.ts";
import { openverse } from "../../sources/openverse.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real Openverse API (anonymous). Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("openverse (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("searches audio and gets the first result's file", async () => {
    const res = await openverse.search(sourceQuery("rain", { types: ["audio"], limit: 5 }), ctx);
    expect(res.assets.length).toBeGreaterThan(0);
    expect(res.assets.length).toBeLessThanOrEqual(5);
    for (const asset of res.assets) Asset.parse(asset);
    const details = AssetDetails.parse(await openverse.getAsset(res.assets[0]!.nativeId, ctx));
    expect(details.files.length).toBeGreaterThan(0);
  });
});
