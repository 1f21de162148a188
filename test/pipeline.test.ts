import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Catalog, CatalogHistory } from "../core/schemas/index.ts";
import { runPipeline } from "../pipeline/run.ts";
import { loadPublished } from "../server/published.ts";
import { polyhaven } from "../sources/polyhaven.ts";
import { replayRuntime } from "./helpers/replay.ts";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "asset-search-pipeline-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const readJson = (dir: string, name: string) => JSON.parse(readFileSync(join(dir, name), "utf8"));

describe("pipeline", () => {
  it("writes the catalog, one history point per day and the index, with a line per source", async () => {
    const dataDir = tempDir();
    const lines: string[] = [];
    const runtime = replayRuntime({ now: new Date("2026-11-21T04:00:00Z") });
    await runPipeline({ runtime, sources: [polyhaven], dataDir, log: (l) => lines.push(l) });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^polyhaven: census ok \(771 listings\), crawl ok \(771 assets\), \d+ ms$/);

    const catalog = Catalog.parse(readJson(dataDir, "catalog.json"));
    expect(catalog.totals.listings).toEqual({ count: 771 });
    expect(catalog.totals.cc0).toEqual({ count: 771 });
    expect(catalog.totals.directDownload).toEqual({ count: 771 });
    expect(catalog.totals.sourcesCounted).toBe(1);
    expect(catalog.byType.texture).toEqual({ count: 767 });
    expect(loadPublished(dataDir).index.get("polyhaven:ArmChair_01")?.title).toBe("Arm Chair 01");
    expect(readdirSync(dataDir).sort()).toEqual(["catalog-history.json", "catalog.json", "index.json.gz"]);

    // A second run the same UTC day replaces that day's point; the next day adds one.
    await runPipeline({ runtime: replayRuntime({ now: new Date("2026-11-21T20:00:00Z") }), sources: [polyhaven], dataDir });
    await runPipeline({ runtime: replayRuntime({ now: new Date("2026-11-22T01:00:00Z") }), sources: [polyhaven], dataDir });
    const history = CatalogHistory.parse(readJson(dataDir, "catalog-history.json"));
    expect(history.points.map((p) => [p.date, p.countedAt])).toEqual([
      ["2026-11-21", "2026-11-21T20:00:00.000Z"],
      ["2026-11-22", "2026-11-22T01:00:00.000Z"],
    ]);
    expect(history.points[1]).toMatchObject({ listings: 771, free: 771, cc0: 771, sources: { polyhaven: 771 } });
  });

  it("keeps a failing source's last good numbers as stale, and its assets in the index", async () => {
    const dataDir = tempDir();
    await runPipeline({ runtime: replayRuntime({ now: new Date("2026-11-20T04:00:00Z") }), sources: [polyhaven], dataDir });

    const failing = replayRuntime({ now: new Date("2026-11-21T04:00:00Z") });
    failing.replay.add({ url: "https://api.polyhaven.com/assets?type=textures", status: 500, body: "down" });
    const lines: string[] = [];
    await runPipeline({ runtime: failing, sources: [polyhaven], dataDir, log: (l) => lines.push(l) });
    expect(lines[0]).toMatch(/^polyhaven: census stale \(771 listings\), crawl kept \(771 assets\).*HTTP 500/);

    const census = Catalog.parse(readJson(dataDir, "catalog.json")).sources[0]!;
    expect(census.total).toBe(771);
    expect(census.countedAt).toBe("2026-11-20T04:00:00.000Z");
    expect(census.stale?.since).toBe("2026-11-20T04:00:00.000Z");
    expect(census.stale?.error).toContain("answered HTTP 500");
    expect(loadPublished(dataDir).index.assets).toHaveLength(771);

    // Still failing the day after: `since` stays at the last good count.
    const still = replayRuntime({ now: new Date("2026-11-22T04:00:00Z") });
    still.replay.add({ url: "https://api.polyhaven.com/assets?type=textures", status: 500, body: "down" });
    await runPipeline({ runtime: still, sources: [polyhaven], dataDir });
    expect(Catalog.parse(readJson(dataDir, "catalog.json")).sources[0]!.stale?.since).toBe("2026-11-20T04:00:00.000Z");
  });
});

describe("pipeline: sources that cannot be counted", () => {
  it("keeps a line for a source never counted, as a lower bound that says why", async () => {
    const dataDir = tempDir();
    const failing = replayRuntime({ now: new Date("2026-11-21T04:00:00Z") });
    failing.replay.add({ url: "https://api.polyhaven.com/assets?type=textures", status: 500, body: "down" });
    const { outcomes } = await runPipeline({ runtime: failing, sources: [polyhaven], dataDir });
    expect(outcomes[0]).toMatchObject({ id: "polyhaven", census: "missing", crawl: "kept", assets: 0 });
    const catalog = Catalog.parse(readJson(dataDir, "catalog.json"));
    expect(catalog.sources[0]).toMatchObject({ id: "polyhaven", total: 0, atLeast: true, stale: { error: expect.stringContaining("HTTP 500") } });
    expect(catalog.sources[0]!.stale!.since).toBeUndefined();
    expect(catalog.totals.listings).toEqual({ count: 0, atLeast: true });
    expect(catalog.totals.sourcesCounted).toBe(0);

    // The next good count replaces the placeholder line.
    await runPipeline({ runtime: replayRuntime({ now: new Date("2026-11-22T04:00:00Z") }), sources: [polyhaven], dataDir });
    const next = Catalog.parse(readJson(dataDir, "catalog.json"));
    expect(next.sources[0]).toMatchObject({ total: 771 });
    expect(next.sources[0]!.stale).toBeUndefined();
    expect(next.totals.sourcesCounted).toBe(1);
  });
});
