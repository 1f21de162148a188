import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { jamendo } from "../../sources/jamendo.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real Jamendo API. Runs only with LIVE=1 and JAMENDO_CLIENT_ID set.
describe.runIf(process.env.LIVE === "1" && Boolean(process.env.JAMENDO_CLIENT_ID))("jamendo (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("searches tracks with a Creative Commons licence each, and lists a downloadable one's MP3", async () => {
    const res = await jamendo.search(sourceQuery("piano", { limit: 10 }), ctx);
    expect(res.assets.length).toBe(10);
    for (const asset of res.assets) Asset.parse(asset);
    expect(res.assets.every((a) => a.license?.spdx?.startsWith("CC-"))).toBe(true);
    const open = res.assets.find((a) => a.downloadable);
    expect(open).toBeDefined();
    const details = AssetDetails.parse(await jamendo.getAsset(open!.nativeId, ctx));
    expect(details.files.map((f) => f.format)).toEqual(["mp3"]);
  });

  it("counts the tracks through results_fullcount", async () => {
    const census = SourceCensus.parse(await jamendo.census(ctx));
    expect(census.total).toBeGreaterThan(100_000);
    expect(census.byType).toEqual({ audio: census.total });
  });
});
