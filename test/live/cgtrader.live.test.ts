import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { createRuntime } from "../../core/model/runtime.ts";
import { Asset, AssetDetails } from "../../core/schemas/index.ts";
import { cgtrader } from "../../sources/cgtrader.ts";
import { sourceQuery } from "../helpers/query.ts";

// Hits the real CGTrader site through the real client. Runs only with LIVE=1. From a datacenter
// address the site may answer its bot challenge: the source then throws a clear error, which this
// test accepts as the only other outcome.
describe.runIf(process.env.LIVE === "1")("cgtrader (live)", () => {
  const runtime = createRuntime(loadConfig({ ...process.env, ASSET_SERVER_REPLAY: "" }));
  const ctx = runtime.context();
  afterAll(() => runtime.http.close());

  it("searches free models (or reports the bot challenge)", async () => {
    let res: Awaited<ReturnType<typeof cgtrader.search>>;
    try {
      res = await cgtrader.search(sourceQuery("chair", { free: true, limit: 5 }), ctx);
    } catch (err) {
      expect(String((err as Error).message)).toMatch(/^cgtrader: blocked by the site's bot challenge/);
      return;
    }
    expect(res.assets.length).toBeGreaterThan(0);
    for (const asset of res.assets) Asset.parse(asset);
    const details = await cgtrader.getAsset(res.assets[0]!.nativeId, ctx);
    AssetDetails.parse(details);
    expect(details!.files.every((f) => f.requiresAuth)).toBe(true);
  }, 30_000);
});
