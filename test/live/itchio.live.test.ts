import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails, SourceCensus } from "../../core/schemas/index.ts";
import { itchio } from "../../sources/itchio.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real itch.io pages through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("itchio (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());
  const query = sourceQuery("low poly tree", { limit: 10 });

  it("searches game assets into valid assets", async () => {
    const result = await itchio.search(query, ctx);
    expect(result.assets.length).toBeGreaterThan(0);
    for (const asset of result.assets) Asset.parse(asset);
  });

  it("browses free 3D assets for an empty query", async () => {
    const result = await itchio.search({ ...query, q: "", free: true, types: ["model"] }, ctx);
    expect(result.assets.length).toBeGreaterThan(0);
    for (const asset of result.assets) Asset.parse(asset);
  });

  it("gets KayKit Forest with requiresAuth files, and null for an unknown page", async () => {
    const details = await itchio.getAsset("kaylousberg~kaykit-forest", ctx);
    AssetDetails.parse(details);
    expect(details!.files.length).toBeGreaterThan(0);
    expect(details!.files.every((f) => f.requiresAuth)).toBe(true);
    expect(await itchio.getAsset("kaylousberg~no-such-pack-zz-0000", ctx)).toBeNull();
  });

  it("counts a lower bound", async () => {
    const census = SourceCensus.parse(await itchio.census(ctx));
    expect(census.total).toBeGreaterThan(0);
  });
});
