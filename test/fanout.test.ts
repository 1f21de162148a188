import { afterEach, describe, expect, it, vi } from "vitest";
import { AssetIndex } from "../core/index/search-index.ts";
import { SearchParams } from "../core/model/search-params.ts";
import { SearchResponse, type SearchStreamSource } from "../core/schemas/index.ts";
import { BreakerRegistry } from "../core/search/circuit-breaker.ts";
import { searchAll } from "../core/search/search.ts";
import { fakeIndexedSource, fakeSource } from "./helpers/fake-source.ts";
import { fakeElapsed, useFakeTime, whenTrue } from "./helpers/fake-time.ts";
import { exposedGc } from "./helpers/gc.ts";
import { replayRuntime } from "./helpers/replay.ts";

const items = (...names: string[]) => JSON.stringify({ items: names.map((n) => ({ slug: n.toLowerCase().replace(/ /g, "-"), name: n })) });

/** `elapsed`: the clock of the sources' tookMs (the real one without it); `answered`: the live sources in the order they answered. */
function setup(env: Record<string, string> = {}, breakers = new BreakerRegistry(3, 60_000), elapsed?: () => number) {
  const runtime = replayRuntime({ env: { SOURCE_TIMEOUT_MS: "300", SEARCH_DEADLINE_MS: "2000", ...env }, ...(elapsed ? { elapsed } : {}) });
  const sources = ["alpha", "beta", "gamma"].map(fakeSource);
  const answered: string[] = [];
  const observer = { source: (answer: SearchStreamSource) => answered.push(answer.provider.provider) };
  const run = async (q = "tree", offset = 0) => {
    const params = SearchParams.parse({ q, offset: String(offset) });
    const res = SearchResponse.parse(await searchAll(params, { sources, index: AssetIndex.empty(), runtime, breakers }, { observer }));
    return { res, line: (id: string) => res.providers.find((p) => p.provider === id)! };
  };
  const answer = (id: string, extra: Record<string, unknown> = {}, q = "tree", offset = 0) =>
    runtime.replay.add({ url: `https://api.${id}.example/search?q=${q}&offset=${offset}`, body: items("Oak Tree", "Pine Tree"), ...extra });
  return { runtime, run, answer, answered };
}

afterEach(() => vi.useRealTimers());

describe("live fan-out", () => {
  it("merges every source's results with an ok line each", async () => {
    const { run, answer } = setup();
    for (const id of ["alpha", "beta", "gamma"]) answer(id);
    const { res, line } = await run();
    expect(res.results).toHaveLength(6);
    expect(line("beta")).toMatchObject({ status: "ok", count: 2, total: 2 });
  });

  it("a source past its timeout is reported as timeout and does not hold the others back", async () => {
    useFakeTime();
    const { run, answer, answered } = setup({}, undefined, fakeElapsed);
    answer("alpha");
    answer("beta", { delayMs: 5000 });
    answer("gamma", { fault: "hang" });
    let settled = false;
    const search = run().finally(() => (settled = true));
    // alpha answers at once; the search waits for the others until their timeout, not a moment longer.
    await whenTrue("alpha to answer", () => answered.includes("alpha"));
    await vi.advanceTimersByTimeAsync(299);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const { res, line } = await search;
    expect(line("alpha")).toMatchObject({ status: "ok", tookMs: 0 });
    expect(line("beta")).toMatchObject({ status: "timeout", count: 0, error: "no answer within 300 ms", tookMs: 300 });
    expect(line("gamma")).toMatchObject({ status: "timeout", tookMs: 300 });
    expect(res.results.map((r) => r.provider)).toEqual(["alpha", "alpha"]);
  });

  // Fails with the AbortSignal.timeout inside AbortSignal.any that core/time-box.ts replaced: the garbage
  // collection drops the per-source AbortSignal.timeout. Real timers, since their collection is the
  // point; the overall deadline is out of reach, so a per-source timer lost to the collection leaves
  // the search waiting for ever, and the test fails on its timeout.
  it("the per-source timeout fires in every search even when a garbage collection runs during it", async () => {
    const gc = exposedGc();
    // A breaker that never opens: every search asks the hanging source.
    const { run, answer, runtime } = setup({ SEARCH_DEADLINE_MS: "3600000" }, new BreakerRegistry(Infinity));
    answer("alpha");
    answer("beta");
    answer("gamma", { fault: "hang" });
    const gammaAsked = () => runtime.replay.requested.filter((u) => u.startsWith("https://api.gamma.example/")).length;
    for (let i = 0; i < 20; i++) {
      const search = run();
      // Once the hanging source is asked, the timers of this search exist when the collection runs.
      await whenTrue("gamma to be asked", () => gammaAsked() === i + 1);
      gc();
      const { line } = await search;
      expect(line("gamma"), `search ${i + 1}`).toMatchObject({ status: "timeout", error: "no answer within 300 ms" });
      expect(line("alpha").status).toBe("ok");
    }
  });

  it("HTTP 500, malformed JSON, a changed shape and a reset are errors naming the source", async () => {
    const { run, answer } = setup();
    answer("alpha", { status: 500, body: "boom" });
    answer("beta", { body: "<html>not json</html>" });
    answer("gamma", { fault: "reset" });
    const first = await run();
    expect(first.line("alpha")).toMatchObject({ status: "error", error: expect.stringMatching(/^alpha: .*answered HTTP 500/) });
    expect(first.line("beta")).toMatchObject({ status: "error", error: expect.stringMatching(/^beta: .*did not answer valid JSON/) });
    expect(first.line("gamma")).toMatchObject({ status: "error", error: expect.stringMatching(/^gamma: .*connection reset/) });
    answer("alpha", { body: JSON.stringify({ results: [] }) }, "rock");
    const changed = await run("rock");
    expect(changed.line("alpha")).toMatchObject({ status: "error", error: "alpha: answer has no items" });
    expect(changed.res.results).toEqual([]);
  });

  it("opens the breaker after repeated failures, skips while cooling down, and closes after a good probe", async () => {
    let now = 0;
    const runtime = replayRuntime({ env: { SOURCE_TIMEOUT_MS: "300", HTTP_CACHE_TTL_MS: "0" } });
    const sources = [fakeSource("alpha")];
    const breakers = new BreakerRegistry(3, 60_000, () => now);
    const run = async () => (await searchAll(SearchParams.parse({ q: "tree" }), { sources, index: AssetIndex.empty(), runtime, breakers })).providers[0]!;
    runtime.replay.add({ url: "https://api.alpha.example/search?q=tree&offset=0", status: 500, body: "down" });
    for (let i = 0; i < 3; i++) expect((await run()).status).toBe("error");
    const asked = runtime.replay.requested.length;
    expect(await run()).toMatchObject({ status: "skipped", error: "cooling down after repeated failures" });
    expect(runtime.replay.requested.length).toBe(asked);
    now = 61_000;
    runtime.replay.add({ url: "https://api.alpha.example/search?q=tree&offset=0", body: items("Oak Tree") });
    expect(await run()).toMatchObject({ status: "ok", count: 1 });
    expect(breakers.for("alpha").state).toBe("closed");
  });

  it("pages each live source by its own offset", async () => {
    const { run, answer, runtime } = setup();
    for (const id of ["alpha", "beta", "gamma"]) answer(id);
    for (const id of ["alpha", "beta", "gamma"]) runtime.replay.add({ url: `https://api.${id}.example/search?q=tree&offset=2`, body: items("Birch Tree") });
    const one = await run("tree", 0);
    const two = await run("tree", 2);
    expect(runtime.replay.requested).toContain("https://api.beta.example/search?q=tree&offset=2");
    const firstIds = new Set(one.res.results.map((r) => r.id));
    expect(two.res.results.filter((r) => firstIds.has(r.id))).toEqual([]);
  });
});

describe("source selection", () => {
  it("searches an indexed source from the index even without the key its crawl needs; skips such a live source", async () => {
    const runtime = replayRuntime();
    const keyed = { env: "SOME_SITE_KEY", required: true };
    const indexed = fakeIndexedSource("idx", { key: keyed });
    const live = { ...fakeSource("lv"), key: keyed };
    const index = AssetIndex.build([
      { id: "idx:oak", provider: "idx", nativeId: "oak", title: "Oak Tree", type: "model", tags: [], url: "https://idx.example/a/oak", downloadable: true },
    ]);
    const res = await searchAll(SearchParams.parse({ q: "oak" }), { sources: [indexed, live], index, runtime, breakers: new BreakerRegistry() });
    expect(res.providers).toEqual([
      { provider: "idx", name: "Fake idx", status: "ok", count: 1, total: 1, tookMs: expect.any(Number) },
      { provider: "lv", name: "Fake lv", status: "skipped", count: 0, error: "needs SOME_SITE_KEY", tookMs: 0 },
    ]);
    expect(res.results.map((r) => r.id)).toEqual(["idx:oak"]);
  });
});

describe("packs", () => {
  it("type=pack finds every listing of a source whose unit is packs, whatever its asset type", async () => {
    const runtime = replayRuntime();
    const packs = fakeIndexedSource("kits", { unit: "packs" });
    const singles = fakeIndexedSource("single");
    const asset = (provider: string) => ({
      id: `${provider}:forest`,
      provider,
      nativeId: "forest",
      title: "Forest Kit",
      type: "model" as const,
      tags: [],
      url: `https://${provider}.example/forest`,
      downloadable: true,
    });
    const index = AssetIndex.build([asset("kits"), asset("single")]);
    const search = (type: string) =>
      searchAll(SearchParams.parse({ q: "forest", type }), { sources: [packs, singles], index, runtime, breakers: new BreakerRegistry() });
    expect((await search("pack")).results.map((r) => r.id)).toEqual(["kits:forest"]);
    expect((await search("pack")).providers.find((p) => p.provider === "single")).toMatchObject({ status: "skipped", error: "has no pack assets" });
    expect((await search("model")).results.map((r) => r.id).sort()).toEqual(["kits:forest", "single:forest"]);
    // The same rule in the type signal: a query naming packs ranks the pack source's listing first, though its id sorts last.
    const later = fakeIndexedSource("zkits", { unit: "packs" });
    const both = { sources: [singles, later], index: AssetIndex.build([asset("zkits"), asset("single")]), runtime, breakers: new BreakerRegistry() };
    const named = await searchAll(SearchParams.parse({ q: "forest pack" }), both);
    expect(named.results.map((r) => r.id)).toEqual(["zkits:forest", "single:forest"]);
    expect(named.results[0]!.score).toBeGreaterThan(named.results[1]!.score!);
  });
});
