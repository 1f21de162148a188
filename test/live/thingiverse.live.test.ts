import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails } from "../../core/schemas/index.ts";
import { thingiverse } from "../../sources/thingiverse.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real Thingiverse API. Runs only with LIVE=1 and THINGIVERSE_TOKEN set.
describe.runIf(process.env.LIVE === "1" && Boolean(process.env.THINGIVERSE_TOKEN))("thingiverse (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("searches things and lists their files (all needing the token)", async () => {
    const res = await thingiverse.search(sourceQuery("gear", { limit: 5 }), ctx);
    expect(res.assets.length).toBeGreaterThan(0);
    for (const asset of res.assets) Asset.parse(asset);
    const details = AssetDetails.parse(await thingiverse.getAsset(res.assets[0]!.nativeId, ctx));
    expect(details.files.every((f) => f.requiresAuth)).toBe(true);
  });
});
