/**
 * A live source's breaker through the search (core/search/search.ts searchLive): a half-open probe
 * whose query replay mode has no recording of says nothing of the site's health, so it neither
 * opens the breaker again nor leaves it waiting for an answer that was never going to come.
 */
import { describe, expect, it } from "vitest";
import { AssetIndex } from "../core/index/search-index.ts";
import { SearchParams } from "../core/model/search-params.ts";
import { BreakerRegistry } from "../core/search/circuit-breaker.ts";
import { searchAll } from "../core/search/search.ts";
import { fakeSource } from "./helpers/fake-source.ts";
import { replayRuntime } from "./helpers/replay.ts";

const TREE = "https://api.alpha.example/search?q=tree&offset=0";

describe("a breaker's probe in replay mode", () => {
  it("lets the next search probe again after a probe of an unrecorded query", async () => {
    const runtime = replayRuntime({ env: { HTTP_CACHE_TTL_MS: "0" } });
    let now = 0;
    const breakers = new BreakerRegistry(3, 60_000, () => now);
    const search = async (q: string) =>
      (await searchAll(SearchParams.parse({ q }), { sources: [fakeSource("alpha")], index: AssetIndex.empty(), runtime, breakers })).providers[0]!;

    runtime.replay.add({ url: TREE, status: 500, body: "synthetic failure" });
    for (let i = 0; i < 3; i++) expect((await search("tree")).status).toBe("error");
    expect(breakers.for("alpha").state).toBe("open");

    now = 61_000;
    expect(await search("rock")).toMatchObject({ status: "error", error: expect.stringContaining("no recorded response") });
    runtime.replay.add({ url: TREE, body: '{"items":[]}' });
    expect((await search("tree")).status).toBe("ok");
    expect(breakers.for("alpha").state).toBe("closed");
  });
});
