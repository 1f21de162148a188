import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails } from "../../core/schemas/index.ts";
import { freesound } from "../../sources/freesound.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real Freesound API. Runs only with LIVE=1 and FREESOUND_API_KEY set.
describe.runIf(process.env.LIVE === "1" && Boolean(process.env.FREESOUND_API_KEY))("freesound (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("searches sounds and lists public previews", async () => {
    const res = await freesound.search(sourceQuery("door", { limit: 5 }), ctx);
    expect(res.assets.length).toBe(5);
    for (const asset of res.assets) Asset.parse(asset);
    const details = AssetDetails.parse(await freesound.getAsset(res.assets[0]!.nativeId, ctx));
    expect(details.files.some((f) => !f.requiresAuth && f.format === "mp3")).toBe(true);
  });
});
