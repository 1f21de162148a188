import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset } from "../../core/schemas/index.ts";
import { texturescom } from "../../sources/texturescom.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real textures.com search API through the real client. Runs only with LIVE=1.
describe.runIf(process.env.LIVE === "1")("texturescom (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("searches into valid assets", async () => {
    const result = await texturescom.search(sourceQuery("tree", { limit: 10 }), ctx);
    expect(result.assets.length).toBeGreaterThan(0);
    expect(result.assets.length).toBeLessThanOrEqual(10);
    for (const asset of result.assets) Asset.parse(asset);
  });

  it("searches free results", async () => {
    const result = await texturescom.search(sourceQuery("wood", { free: true, limit: 5 }), ctx);
    for (const asset of result.assets) expect(Asset.parse(asset).price?.free).toBe(true);
  });
});
