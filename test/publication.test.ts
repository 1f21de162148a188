import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { ENGINE } from "../core/publication/meta.ts";
import { currentSet, fileInfo, IndexMeta, loadPublished } from "../core/publication/published.ts";
import { BrowserIndexMeta } from "../core/schemas/browser-index.ts";
import type { Catalog } from "../core/schemas/index.ts";
import { exportPublication } from "../pipeline/export.ts";
import type { SourceOutcome } from "../pipeline/guard.ts";
import { refusal } from "../pipeline/guard.ts";
import { PublicationRefused, runPipeline } from "../pipeline/run.ts";
import { loadPipelineSettings } from "../pipeline/settings.ts";
import { cgbookcase } from "../sources/cgbookcase.ts";
import { kenney } from "../sources/kenney.ts";
import { polyhaven } from "../sources/polyhaven.ts";
import { quaternius } from "../sources/quaternius.ts";
import { replayRuntime } from "./helpers/replay.ts";
import { scratchDirs } from "./helpers/scratch.ts";

const scratch = scratchDirs("asset-search-publication-");

const FOUR = [polyhaven, cgbookcase, kenney, quaternius];
const POLYHAVEN_CENSUS = "https://api.polyhaven.com/assets?type=textures";

async function publish(dataDir: string, now: string, options: { sources?: typeof FOUR; failing?: string[] } = {}) {
  const runtime = replayRuntime({ now: new Date(now) });
  for (const url of options.failing ?? []) runtime.replay.add({ url, status: 500, body: "down" });
  return runPipeline({ runtime, sources: options.sources ?? FOUR, dataDir });
}

const setDir = (dataDir: string) => join(dataDir, "sets", currentSet(dataDir)!);
const metaOf = (dataDir: string) => IndexMeta.parse(JSON.parse(readFileSync(join(setDir(dataDir), "index.meta.json"), "utf8")));

/** Every file below `dir` by relative path, with its bytes. */
function snapshot(dir: string): Record<string, Buffer> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return Object.fromEntries(files.map((e) => [join(e.parentPath, e.name).slice(dir.length + 1), readFileSync(join(e.parentPath, e.name))]));
}

describe("index.meta.json", () => {
  it("is written with every set: format, build time, engine, counts per source and every file's size and sha256", async () => {
    const dataDir = scratch();
    await publish(dataDir, "2026-11-21T04:00:00Z");
    const dir = setDir(dataDir);
    const file = (name: string) => readFileSync(join(dir, name));
    expect(metaOf(dataDir)).toEqual({
      format: 1,
      builtAt: "2026-11-21T04:00:00.000Z",
      engine: ENGINE,
      counts: { assets: 797, sources: { cgbookcase: 7, kenney: 12, polyhaven: 771, quaternius: 7 } },
      files: {
        "catalog.json": fileInfo(file("catalog.json")),
        "catalog-history.json": fileInfo(file("catalog-history.json")),
        "index.json.gz": fileInfo(file("index.json.gz")),
        "index.db": fileInfo(file("index.db")),
      },
      indexFile: { name: "index.db", format: 1, engine: expect.stringMatching(/^SQLite 3 \(better-sqlite3\), read in place/) },
    });
    expect(fileInfo("abc")).toEqual({ bytes: 3, sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" });
    expect(ENGINE.analysis).toMatchObject({ fields: ["title", "tags", "categories", "description", "author"], stemmer: "porter2" });
    expect(loadPublished(dataDir).meta).toEqual(metaOf(dataDir));
  });

  it("makes a set whose file differs from it fail to load, naming the file", async () => {
    const dataDir = scratch();
    await publish(dataDir, "2026-11-21T04:00:00Z");
    const path = join(setDir(dataDir), "catalog.json");
    const bytes = readFileSync(path);
    writeFileSync(path, Buffer.concat([bytes.subarray(0, -1), Buffer.from(" ")]));
    const want = metaOf(dataDir).files["catalog.json"]!;
    expect(() => loadPublished(dataDir)).toThrow(
      `catalog.json does not match index.meta.json: ${bytes.length} bytes with sha256 ${fileInfo(readFileSync(path)).sha256}, expected ${want.bytes} bytes with sha256 ${want.sha256}`,
    );
  });

  it("has the server open the set's index file in place, its size checked against it", async () => {
    const dataDir = scratch();
    await publish(dataDir, "2026-11-21T04:00:00Z");
    const path = join(setDir(dataDir), "index.db");
    const published = loadPublished(dataDir);
    expect(published.index.documentCount).toBe(797);
    expect(published.index.search("rock wall").length).toBeGreaterThan(0);
    // index.json.gz is not read when the index file is there: a server with a large index starts at once.
    writeFileSync(join(setDir(dataDir), "index.json.gz"), "");
    expect(loadPublished(dataDir).index.get("polyhaven:rock_wall_02")?.title).toBe("Rock Wall 02");
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, 4096));
    expect(() => loadPublished(dataDir)).toThrow(`index.db does not match index.meta.json: 4096 bytes, expected ${bytes.length} bytes`);
  });

  it("is not needed to load a set written before it existed", async () => {
    const dataDir = scratch();
    await publish(dataDir, "2026-11-21T04:00:00Z");
    rmSync(join(setDir(dataDir), "index.meta.json"));
    const published = loadPublished(dataDir);
    expect(published.meta).toBeUndefined();
    expect([...published.index.records()]).toHaveLength(797);
    // The next run reads it as its previous set, and writes its own with a meta.
    await publish(dataDir, "2026-11-22T04:00:00Z");
    expect(metaOf(dataDir).builtAt).toBe("2026-11-22T04:00:00.000Z");
    expect(loadPublished(dataDir).history.points.map((p) => p.date)).toEqual(["2026-11-21", "2026-11-22"]);
  });
});

describe("exportPublication (npm run publication)", () => {
  it("copies the live set's files, its index file included, to <out>/v1/, byte for byte", async () => {
    const dataDir = scratch();
    await publish(dataDir, "2026-11-21T04:00:00Z");
    const out = scratch();
    expect(exportPublication(dataDir, out)).toBe(currentSet(dataDir));
    const copied = snapshot(out);
    const set = snapshot(setDir(dataDir));
    expect(
      Object.keys(copied)
        .filter((name) => !name.startsWith("v1/browser/"))
        .sort(),
    ).toEqual(["v1/catalog-history.json", "v1/catalog.json", "v1/index.db", "v1/index.json.gz", "v1/index.meta.json"]);
    for (const [name, bytes] of Object.entries(set)) expect(copied[`v1/${name}`]?.equals(bytes), name).toBe(true);
  });

  it("writes the browser index of the set beside it, with its module, in place of an earlier export's", async () => {
    const dataDir = scratch();
    await publish(dataDir, "2026-11-21T04:00:00Z");
    const out = scratch();
    exportPublication(dataDir, out);
    const browser = join(out, "v1", "browser");
    const meta = BrowserIndexMeta.parse(JSON.parse(readFileSync(join(browser, "meta.json"), "utf8")));
    expect(meta.builtAt).toBe("2026-11-21T04:00:00.000Z");
    expect(meta.documentCount).toBe(metaOf(dataDir).counts.assets);
    expect(readdirSync(join(browser, "records"))).toHaveLength(meta.records.shards);
    expect(readdirSync(join(browser, "terms"))).toHaveLength(meta.terms.shards + 1);
    expect(readFileSync(join(browser, "search.js"), "utf8")).toMatch(/export\s*\{[^}]*openBrowserIndex/);
    // A shard only a larger earlier export had is gone.
    writeFileSync(join(browser, "records", "99999.json"), "[]");
    exportPublication(dataDir, out);
    expect(readdirSync(join(browser, "records"))).toHaveLength(meta.records.shards);
  });

  it("writes nothing when a file of the set does not match its meta, or when the set has no meta", async () => {
    const dataDir = scratch();
    await publish(dataDir, "2026-11-21T04:00:00Z");
    writeFileSync(join(setDir(dataDir), "index.json.gz"), "");
    const out = scratch();
    expect(() => exportPublication(dataDir, out)).toThrow(/^index\.json\.gz does not match index\.meta\.json: 0 bytes with sha256 e3b0c442/);
    expect(existsSync(join(out, "v1"))).toBe(false);

    rmSync(join(setDir(dataDir), "index.meta.json"));
    expect(() => exportPublication(dataDir, out)).toThrow(
      `set ${currentSet(dataDir)} has no index.meta.json (it was written before the meta existed): run the pipeline again`,
    );
    expect(existsSync(join(out, "v1"))).toBe(false);
  });
});

describe("the guard", () => {
  it("publishes a run where a few sources fail, with those sources stale and the history point saying so", async () => {
    const dataDir = scratch();
    await publish(dataDir, "2026-11-21T04:00:00Z");
    const { outcomes, set } = await publish(dataDir, "2026-11-22T04:00:00Z", { failing: [POLYHAVEN_CENSUS] });
    expect(currentSet(dataDir)).toBe(set);
    expect(outcomes.map((o) => [o.id, o.census, o.crawl])).toEqual([
      ["polyhaven", "stale", "kept"],
      ["cgbookcase", "ok", "ok"],
      ["kenney", "ok", "ok"],
      ["quaternius", "ok", "ok"],
    ]);
    const { catalog, history } = loadPublished(dataDir);
    expect(catalog!.sources[0]).toMatchObject({ id: "polyhaven", total: 771, stale: { since: "2026-11-21T04:00:00.000Z" } });
    expect(history.points.map(({ date, stale, atLeast, sourcesCounted, listings }) => ({ date, stale, atLeast, sourcesCounted, listings }))).toEqual([
      { date: "2026-11-21", stale: [], atLeast: false, sourcesCounted: 4, listings: catalog!.totals.listings.count },
      { date: "2026-11-22", stale: ["polyhaven"], atLeast: false, sourcesCounted: 4, listings: catalog!.totals.listings.count },
    ]);
  });

  it("publishes nothing when the listing total drops by more than MAX_LISTINGS_DROP", async () => {
    const dataDir = scratch();
    const { catalog: before } = await publish(dataDir, "2026-11-21T04:00:00Z");
    const files = snapshot(dataDir);
    // Poly Haven gone from the registry: its listings go with it.
    const run = publish(dataDir, "2026-11-22T04:00:00Z", { sources: [cgbookcase, kenney, quaternius] });
    await expect(run).rejects.toThrow(PublicationRefused);
    const refused = (await run.catch((e: unknown) => e)) as PublicationRefused;
    const after = refused.catalog.totals.listings.count;
    const drop = Math.round(((before.totals.listings.count - after) / before.totals.listings.count) * 1000) / 10;
    expect(refused.reason).toBe(
      `listings fell from ${before.totals.listings.count} to ${after} (${drop}%, more than MAX_LISTINGS_DROP 0.3): nothing published`,
    );
    expect(refused.outcomes.map((o) => o.id)).toEqual(["cgbookcase", "kenney", "quaternius"]);
    const now = snapshot(dataDir);
    expect(Object.keys(now).sort()).toEqual(Object.keys(files).sort());
    for (const [name, bytes] of Object.entries(files)) expect(now[name]?.equals(bytes), name).toBe(true);
  });

  it("refuses above each share, never at it", () => {
    const outcome = (id: string, fails: boolean): SourceOutcome => ({ id, census: fails ? "stale" : "ok", crawl: "none", assets: 0, tookMs: 0 });
    const catalog = (listings: number) => ({ totals: { listings: { count: listings } } }) as Catalog;
    const limits = { maxFailedShare: 0.5, maxListingsDrop: 0.3 };
    const four = (failing: number) => ["a", "b", "c", "d"].map((id, i) => outcome(id, i < failing));
    expect(refusal(four(2), catalog(100), catalog(100), limits)).toBeUndefined();
    expect(refusal(four(3), catalog(100), catalog(100), limits)).toBe("3 of 4 sources failed (75%, more than MAX_FAILED_SHARE 0.5): nothing published");
    // A source with nothing to count or crawl is not in the share.
    const idle: SourceOutcome = { id: "idle", census: "none", crawl: "none", assets: 0, tookMs: 0 };
    expect(refusal([...four(2), idle], catalog(100), catalog(100), { ...limits, maxFailedShare: 0.49 })).toBe(
      "2 of 4 sources failed (50%, more than MAX_FAILED_SHARE 0.49): nothing published",
    );
    expect(refusal(four(0), catalog(70), catalog(100), limits)).toBeUndefined();
    expect(refusal(four(0), catalog(69), catalog(100), limits)).toBe("listings fell from 100 to 69 (31%, more than MAX_LISTINGS_DROP 0.3): nothing published");
    // A first run has nothing to fall from; a rise is never refused.
    expect(refusal(four(0), catalog(0), undefined, limits)).toBeUndefined();
    expect(refusal(four(0), catalog(500), catalog(100), limits)).toBeUndefined();
  });
});

describe("the pipeline's variables", () => {
  it("default to a 0.5 failed share, a 0.3 listing drop, the system clock and no previous URL", () => {
    const settings = loadPipelineSettings({});
    expect(settings).toMatchObject({ maxFailedShare: 0.5, maxListingsDrop: 0.3, previousUrl: undefined });
    vi.useFakeTimers({ now: new Date("2030-01-02T03:04:05Z") });
    try {
      expect(settings.now().toISOString()).toBe("2030-01-02T03:04:05.000Z");
    } finally {
      vi.useRealTimers();
    }
  });

  it("take SOURCE_DATE_EPOCH as the build's clock, and a base URL without its trailing slash", () => {
    const settings = loadPipelineSettings({
      SOURCE_DATE_EPOCH: "1795000000",
      MAX_FAILED_SHARE: "1",
      MAX_LISTINGS_DROP: "0",
      PREVIOUS_URL: "https://o.github.io/r/",
    });
    expect(settings.now().toISOString()).toBe("2026-11-18T11:06:40.000Z");
    expect(settings).toMatchObject({ maxFailedShare: 1, maxListingsDrop: 0, previousUrl: "https://o.github.io/r" });
  });

  it.each([
    ["MAX_FAILED_SHARE", "abc", "MAX_FAILED_SHARE must be a share from 0 to 1 (such as 0.5), got 'abc'"],
    ["MAX_FAILED_SHARE", "1.5", "MAX_FAILED_SHARE must be a share from 0 to 1 (such as 0.5), got '1.5'"],
    ["MAX_LISTINGS_DROP", "-0.1", "MAX_LISTINGS_DROP must be a share from 0 to 1 (such as 0.3), got '-0.1'"],
    ["SOURCE_DATE_EPOCH", "1795000000.5", "SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC, got '1795000000.5'"],
    ["SOURCE_DATE_EPOCH", "2026-11-18", "SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC, got '2026-11-18'"],
    ["SOURCE_DATE_EPOCH", "99999999999999999", "SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC, got '99999999999999999'"],
    ["PREVIOUS_URL", "o.github.io/r", "PREVIOUS_URL must be an absolute http(s) URL, got 'o.github.io/r'"],
    ["PREVIOUS_URL", "file:///srv/publication", "PREVIOUS_URL must be an absolute http(s) URL, got 'file:///srv/publication'"],
  ])("refuse %s=%s, naming it", (name, value, message) => {
    expect(() => loadPipelineSettings({ [name]: value })).toThrow(message);
  });
});
