import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { currentSet, loadPublished } from "../core/publication/published.ts";
import { runPipeline } from "../pipeline/run.ts";
import { polyhaven } from "../sources/polyhaven.ts";
import { replayRuntime } from "./helpers/replay.ts";
import { scratchDirs } from "./helpers/scratch.ts";

const tempDir = scratchDirs("asset-search-pipeline-");

const catalogOf = (dataDir: string) => loadPublished(dataDir).catalog!;

// With one source, its failure is every source failing: these tests lift the guard (pipeline/guard.ts) to see what a failure keeps.
const unguarded = { maxFailedShare: 1, maxListingsDrop: 1 };

describe("pipeline", () => {
  it("writes the catalog, one history point per day and the index, with a line per source", async () => {
    const dataDir = tempDir();
    const lines: string[] = [];
    const runtime = replayRuntime({ now: new Date("2026-11-21T04:00:00Z") });
    const { set } = await runPipeline({ runtime, sources: [polyhaven], dataDir, log: (l) => lines.push(l) });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^polyhaven: census ok \(771 listings\), crawl ok \(771 assets\), \d+ ms$/);
    expect(lines[1]).toBe(`published ${join(dataDir, "sets", set)}`);

    const catalog = catalogOf(dataDir);
    expect(catalog.totals.listings).toEqual({ count: 771 });
    expect(catalog.totals.cc0).toEqual({ count: 771 });
    expect(catalog.totals.directDownload).toEqual({ count: 771 });
    expect(catalog.totals.sourcesCounted).toBe(1);
    expect(catalog.byType.texture).toEqual({ count: 767 });
    expect(loadPublished(dataDir).index.get("polyhaven:ArmChair_01")?.title).toBe("Arm Chair 01");
    expect(readdirSync(dataDir).sort()).toEqual(["current.json", "sets"]);
    expect(readdirSync(join(dataDir, "sets", set)).sort()).toEqual(["catalog-history.json", "catalog.json", "index.db", "index.json.gz", "index.meta.json"]);

    // A second run the same UTC day replaces that day's point; the next day adds one.
    await runPipeline({ runtime: replayRuntime({ now: new Date("2026-11-21T20:00:00Z") }), sources: [polyhaven], dataDir });
    await runPipeline({ runtime: replayRuntime({ now: new Date("2026-11-22T01:00:00Z") }), sources: [polyhaven], dataDir });
    const { history } = loadPublished(dataDir);
    expect(history.points.map((p) => [p.date, p.countedAt])).toEqual([
      ["2026-11-21", "2026-11-21T20:00:00.000Z"],
      ["2026-11-22", "2026-11-22T01:00:00.000Z"],
    ]);
    expect(history.points[1]).toEqual({
      date: "2026-11-22",
      countedAt: "2026-11-22T01:00:00.000Z",
      listings: 771,
      free: 771,
      cc0: 771,
      directDownload: 771,
      sources: { polyhaven: 771 },
      stale: [],
      atLeast: false,
      sourcesCounted: 1,
      byType: { hdri: 2, model: 2, texture: 767 },
    });
  });

  it("keeps a failing source's last good numbers as stale, and its assets in the index", async () => {
    const dataDir = tempDir();
    await runPipeline({ runtime: replayRuntime({ now: new Date("2026-11-20T04:00:00Z") }), sources: [polyhaven], dataDir });

    const failing = replayRuntime({ now: new Date("2026-11-21T04:00:00Z") });
    failing.replay.add({ url: "https://api.polyhaven.com/assets?type=textures", status: 500, body: "down" });
    const lines: string[] = [];
    await runPipeline({ runtime: failing, sources: [polyhaven], dataDir, log: (l) => lines.push(l), limits: unguarded });
    expect(lines[0]).toMatch(/^polyhaven: census stale \(771 listings\), crawl kept \(771 assets\).*HTTP 500/);

    const census = catalogOf(dataDir).sources[0]!;
    expect(census.total).toBe(771);
    expect(census.countedAt).toBe("2026-11-20T04:00:00.000Z");
    expect(census.stale?.since).toBe("2026-11-20T04:00:00.000Z");
    expect(census.stale?.error).toContain("answered HTTP 500");
    expect([...loadPublished(dataDir).index.records()]).toHaveLength(771);
    expect(loadPublished(dataDir).history.points.at(-1)).toMatchObject({ date: "2026-11-21", listings: 771, stale: ["polyhaven"], sourcesCounted: 1 });

    // Still failing the day after: `since` stays at the last good count.
    const still = replayRuntime({ now: new Date("2026-11-22T04:00:00Z") });
    still.replay.add({ url: "https://api.polyhaven.com/assets?type=textures", status: 500, body: "down" });
    await runPipeline({ runtime: still, sources: [polyhaven], dataDir, limits: unguarded });
    expect(catalogOf(dataDir).sources[0]!.stale?.since).toBe("2026-11-20T04:00:00.000Z");
  });
});

describe("pipeline: sources that cannot be counted", () => {
  it("keeps a line for a source never counted, as a lower bound that says why", async () => {
    const dataDir = tempDir();
    const failing = replayRuntime({ now: new Date("2026-11-21T04:00:00Z") });
    failing.replay.add({ url: "https://api.polyhaven.com/assets?type=textures", status: 500, body: "down" });
    const { outcomes } = await runPipeline({ runtime: failing, sources: [polyhaven], dataDir, limits: unguarded });
    expect(outcomes[0]).toMatchObject({ id: "polyhaven", census: "missing", crawl: "kept", assets: 0 });
    const catalog = catalogOf(dataDir);
    expect(catalog.sources[0]).toMatchObject({ id: "polyhaven", total: 0, atLeast: true, stale: { error: expect.stringContaining("HTTP 500") } });
    expect(catalog.sources[0]!.stale!.since).toBeUndefined();
    expect(catalog.totals.listings).toEqual({ count: 0, atLeast: true });
    expect(catalog.totals.sourcesCounted).toBe(0);

    // The next good count replaces the placeholder line.
    await runPipeline({ runtime: replayRuntime({ now: new Date("2026-11-22T04:00:00Z") }), sources: [polyhaven], dataDir });
    const next = catalogOf(dataDir);
    expect(next.sources[0]).toMatchObject({ total: 771 });
    expect(next.sources[0]!.stale).toBeUndefined();
    expect(next.totals.sourcesCounted).toBe(1);
  });
});

describe("pipeline: the published set", () => {
  const run = async (dataDir: string, now: string) =>
    (await runPipeline({ runtime: replayRuntime({ now: new Date(now) }), sources: [polyhaven], dataDir })).set;
  const sets = (dataDir: string) => readdirSync(join(dataDir, "sets")).sort();
  const days = (dataDir: string) => loadPublished(dataDir).history.points.map((p) => p.date);

  it("switches current.json to each run's set and keeps the set before it, no older one", async () => {
    const dataDir = tempDir();
    const first = await run(dataDir, "2026-11-21T04:00:00Z");
    expect(first).toMatch(/^20261121T040000Z-[0-9a-f]{8}$/);
    expect(JSON.parse(readFileSync(join(dataDir, "current.json"), "utf8"))).toEqual({ set: first });
    // The same clock and content make the same set: nothing added.
    expect(await run(dataDir, "2026-11-21T04:00:00Z")).toBe(first);
    expect(sets(dataDir)).toEqual([first]);

    const second = await run(dataDir, "2026-11-22T04:00:00Z");
    expect(sets(dataDir)).toEqual([first, second]);
    expect(JSON.parse(readFileSync(join(dataDir, "current.json"), "utf8"))).toEqual({ set: second });

    // What a run killed while writing leaves behind goes with the next run, as does the oldest set.
    mkdirSync(join(dataDir, "sets", "20261123T040000Z-0badc0de.4242.tmp"));
    writeFileSync(join(dataDir, "sets", "20261123T040000Z-0badc0de.4242.tmp", "catalog.json"), "{");
    writeFileSync(join(dataDir, "current.json.123.456.tmp"), "");
    const third = await run(dataDir, "2026-11-23T04:00:00Z");
    expect(sets(dataDir)).toEqual([second, third]);
    expect(readdirSync(dataDir).sort()).toEqual(["current.json", "sets"]);
    expect(days(dataDir)).toEqual(["2026-11-21", "2026-11-22", "2026-11-23"]);
  });

  it("reads the loose files of the layout before sets (history included), then replaces them by a set", async () => {
    const dataDir = tempDir();
    const old = await run(dataDir, "2026-11-21T04:00:00Z");
    // A set copied out whole: its meta goes with the loose files once a set replaces them.
    for (const file of ["index.json.gz", "catalog.json", "catalog-history.json", "index.meta.json"]) {
      renameSync(join(dataDir, "sets", old, file), join(dataDir, file));
    }
    rmSync(join(dataDir, "sets"), { recursive: true });
    rmSync(join(dataDir, "current.json"));
    expect(loadPublished(dataDir).catalog?.countedAt).toBe("2026-11-21T04:00:00.000Z");
    expect([...loadPublished(dataDir).index.records()]).toHaveLength(771);

    const next = await run(dataDir, "2026-11-22T04:00:00Z");
    expect(readdirSync(dataDir).sort()).toEqual(["current.json", "sets"]);
    expect(sets(dataDir)).toEqual([next]);
    expect(days(dataDir)).toEqual(["2026-11-21", "2026-11-22"]);
  });
});

describe("loadPublished", () => {
  it("reads the committed data/: current.json and at most two sets, no loose files", () => {
    const data = fileURLToPath(new URL("../data", import.meta.url));
    expect(readdirSync(data).sort()).toEqual(["current.json", "sets"]);
    const sets = readdirSync(join(data, "sets"));
    expect(sets).toContain(currentSet(data));
    expect(sets.length).toBeLessThanOrEqual(2);
    expect(loadPublished(data).index.get("polyhaven:ArmChair_01")?.title).toBe("Arm Chair 01");
  });

  it("gives an empty catalogue when nothing is published", () => {
    const published = loadPublished(tempDir());
    expect([...published.index.records()]).toEqual([]);
    expect(published.catalog).toBeUndefined();
    expect(published.history).toEqual({ points: [] });
  });

  it("reads the set current.json names, never loose files beside it", async () => {
    const dataDir = tempDir();
    await runPipeline({ runtime: replayRuntime({ now: new Date("2026-11-21T04:00:00Z") }), sources: [polyhaven], dataDir });
    writeFileSync(join(dataDir, "catalog.json"), "{");
    writeFileSync(join(dataDir, "index.json.gz"), "");
    expect(loadPublished(dataDir).catalog?.countedAt).toBe("2026-11-21T04:00:00.000Z");
    expect([...loadPublished(dataDir).index.records()]).toHaveLength(771);
  });

  it("fails loudly on a set that lacks a file, and on a pointer that leads out of sets/", async () => {
    const dataDir = tempDir();
    const { set } = await runPipeline({ runtime: replayRuntime({ now: new Date("2026-11-21T04:00:00Z") }), sources: [polyhaven], dataDir });
    rmSync(join(dataDir, "sets", set, "catalog-history.json"));
    expect(() => loadPublished(dataDir)).toThrow(`ENOENT: no such file or directory, open '${join(dataDir, "sets", set, "catalog-history.json")}'`);

    writeFileSync(join(dataDir, "current.json"), JSON.stringify({ set: "../.." }));
    expect(() => loadPublished(dataDir)).toThrow(/"path": \[\s*"set"\s*\]/);
  });
});
