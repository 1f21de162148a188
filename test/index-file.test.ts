import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AssetIndex, type IndexFilter } from "../core/index/search-index.ts";
import { loadPublished } from "../core/publication/published.ts";
import { planQuery } from "../core/relevance/query-plan.ts";
import { syntheticAsset } from "./helpers/synthetic-asset.ts";
import { loadJudgedSet } from "./relevance/judged-set.ts";
import { loadCatalogue } from "./relevance/pool.ts";

const dir = mkdtempSync(join(tmpdir(), "index-file-"));
const path = join(dir, "index.db");
let memory: AssetIndex;
let file: AssetIndex;

beforeAll(() => {
  memory = AssetIndex.build(loadCatalogue(), "2026-11-25T00:00:00.000Z");
  memory.write(path);
  file = AssetIndex.open(path);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A search's answer as compared: ids with every number of their match. */
const answer = (index: AssetIndex, ...args: Parameters<AssetIndex["search"]>) => index.search(...args).map((h) => [h.asset.id, h.match]);

describe("the index file", () => {
  it("holds the statistics, records and counts of the index it was written from", () => {
    expect(file.documentCount).toBe(memory.documentCount);
    expect(file.documentCount).toBeGreaterThan(3000);
    expect(file.builtAt).toBe("2026-11-25T00:00:00.000Z");
    expect(file.averageLengths).toEqual(memory.averageLengths);
    for (const term of ["rock", "wood", "lowpoli", "sans", "nosuchterm"]) expect(file.documentFrequency(term)).toBe(memory.documentFrequency(term));
    expect([...file.records()]).toEqual([...memory.records()]);
    expect(file.get("polyhaven:rock_wall_02")?.title).toBe("Rock Wall 02");
    expect(file.get("polyhaven:rock_wall_02")).toEqual(memory.get("polyhaven:rock_wall_02"));
    expect(file.get("nope:nothing")).toBeUndefined();
    expect([...file.countBy("provider")]).toEqual([...memory.countBy("provider")]);
    expect([...file.countBy("license")]).toEqual([...memory.countBy("license")]);
    expect([...file.sourcesCarrying("format")]).toEqual([...memory.sourcesCarrying("format")]);
  });

  it("answers every judged query exactly as the index in memory, matches included", () => {
    for (const { q } of loadJudgedSet().queries) expect(answer(file, q), q).toEqual(answer(memory, q));
  });

  it("is what data/ serves: the committed set's file answers as an index built from its records now", () => {
    // Its terms were analysed when it was written: a change of text analysis or of the field
    // weights needs `npm run pipeline` (README, "The embedded data") before this passes again.
    const served = loadPublished("data").index;
    const rebuilt = AssetIndex.build([...served.records()], served.builtAt);
    for (const { q } of loadJudgedSet().queries) expect(answer(served, q), q).toEqual(answer(rebuilt, q));
  });

  it("answers alike with prefixes, typos, type words, filters and no words", () => {
    const filters: IndexFilter[] = [
      {},
      { providers: new Set(["fontsource", "kenney"]) },
      { types: new Set(["pack"]), packProviders: new Set(["kenney", "quaternius"]) },
      { free: true, downloadable: true, keep: (a) => a.license?.spdx === "CC0-1.0" },
    ];
    const queries = ["", "tre", "brik wall", "fonts", "pixel font", "low poly tree", "hdri"];
    for (const filter of filters) {
      for (const q of queries) {
        const plan = { ...planQuery(q), typos: true };
        expect(answer(file, plan, filter), q).toEqual(answer(memory, plan, filter));
      }
    }
  });

  it("asks the file nothing when a search repeats, words it does not hold and prefixes included", () => {
    const opened = AssetIndex.open(path);
    const plan = { ...planQuery("brik wall nosuchword tre"), typos: true };
    const first = answer(opened, plan);
    const statement = Object.getPrototypeOf(new Database(":memory:").prepare("SELECT 1")) as Database.Statement;
    const reads = ["get", "all", "iterate"].map((m) => vi.spyOn(statement, m as "get"));
    try {
      expect(answer(opened, plan)).toEqual(first);
      for (const read of reads) expect(read).not.toHaveBeenCalled();
    } finally {
      for (const read of reads) read.mockRestore();
    }
  });

  it("holds the file shared for as long as it is open, so a served file cannot change under it", () => {
    const writer = new Database(path, { timeout: 0 });
    try {
      expect(() => writer.prepare("UPDATE meta SET value = value WHERE key = 'format'").run()).toThrow("database is locked");
    } finally {
      writer.close();
    }
  });

  it("refuses a file of another format, naming it and the format it reads", () => {
    const other = join(dir, "other.db");
    memory.write(other);
    const db = new Database(other);
    db.prepare("UPDATE meta SET value = '2' WHERE key = 'format'").run();
    db.close();
    expect(() => AssetIndex.open(other)).toThrow(`${other} is an index file of format 2; this server reads format 1`);
  });

  it("records the tie order its document numbers follow, and refuses a file built under another", () => {
    const other = join(dir, "other-ties.db");
    memory.write(other);
    const db = new Database(other);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'tieOrder'").pluck().get()).toBe('"free, downloadable, id"');
    db.prepare(`UPDATE meta SET value = '"id"' WHERE key = 'tieOrder'`).run();
    db.close();
    expect(() => AssetIndex.open(other)).toThrow(
      `${other} numbers its documents by the tie order "id"; this server ranks ties by "free, downloadable, id": rebuild it`,
    );
    // A file written before the meta named its order was numbered by the one order format 1 has had.
    const unnamed = new Database(other);
    unnamed.prepare("DELETE FROM meta WHERE key = 'tieOrder'").run();
    unnamed.close();
    expect(AssetIndex.open(other).documentCount).toBe(memory.documentCount);
  });
});

describe("IndexResult.top", () => {
  it("is each source's first hits of the whole ranking, in its order", () => {
    for (const q of ["rock", "wood floor", "sans serif", "arrows", ""]) {
      const found = memory.find(q);
      const all = found.all();
      for (const n of [1, 5, 300]) {
        const firsts = new Map<string, number>();
        const expected = all.filter((h) => {
          const seen = firsts.get(h.asset.provider) ?? 0;
          firsts.set(h.asset.provider, seen + 1);
          return seen < n;
        });
        expect(
          found.top(n).map((h) => h.asset.id),
          `${q} ${n}`,
        ).toEqual(expected.map((h) => h.asset.id));
      }
    }
  });

  it("counts every hit per source, not only the ones read", () => {
    const found = memory.find("rock");
    const counts = new Map<string, number>();
    for (const h of found.all()) counts.set(h.asset.provider, (counts.get(h.asset.provider) ?? 0) + 1);
    expect(found.totals()).toEqual(counts);
    expect(found.count).toBe(found.all().length);
  });
});

describe("a bounded find", () => {
  // Titles of growing length: the shorter the title, the higher "rock"'s saturation in it.
  const long = (n: number) => `Rock ${"old ".repeat(n)}`.trim();
  const index = AssetIndex.build([
    ...[0, 1, 2, 3, 4, 5].map((n) => syntheticAsset("a", `a${n}`, { title: long(n) })),
    ...[0, 1].map((n) => syntheticAsset("b", `b${n}`, { title: long(n) })),
  ]);

  it("reads each source's best postings of a term only, and says whose totals are lower bounds", () => {
    const unbounded = index.find("rock");
    const bounded = index.find("rock", {}, { limit: 3 });
    expect(bounded.totals()).toEqual(
      new Map([
        ["a", 3],
        ["b", 2],
      ]),
    );
    expect(bounded.atLeast()).toEqual(new Set(["a"]));
    expect(unbounded.atLeast()).toEqual(new Set());
    expect(bounded.top(10).map((h) => h.asset.id)).toEqual(["a:a0", "b:b0", "a:a1", "b:b1", "a:a2"]);
    expect(bounded.top(10).map((h) => h.asset.id)).toEqual(
      unbounded
        .top(10)
        .map((h) => h.asset.id)
        .filter((id) => !["a:a3", "a:a4", "a:a5"].includes(id)),
    );
  });

  it("skips the postings of the sources the filter leaves out", () => {
    const found = index.find("rock", { providers: new Set(["b"]) }, { limit: 1 });
    expect(found.totals()).toEqual(new Map([["b", 1]]));
    expect(found.atLeast()).toEqual(new Set(["b"]));
  });
});

describe("an index file's postings in rows", () => {
  it("reads a source's best postings row by row, as many rows as a limit needs, and all of them without one", () => {
    // 9,000 rocks of one source, enough for three rows of postings (core/index/file.ts POSTINGS_ROW), and two of another.
    const assets = Array.from({ length: 9000 }, (_, i) => syntheticAsset("a", `a${i}`, { title: `Rock ${"old ".repeat(i % 7)}`.trim() }));
    const big = AssetIndex.build([...assets, syntheticAsset("b", "b0", { title: "Rock" }), syntheticAsset("b", "b1", { title: "Rock old" })]);
    const bigPath = join(dir, "big.db");
    big.write(bigPath);
    const opened = AssetIndex.open(bigPath);
    for (const limit of [100, 5000, undefined]) {
      const fromFile = opened.find("rock", {}, limit === undefined ? {} : { limit });
      const fromMemory = big.find("rock", {}, limit === undefined ? {} : { limit });
      expect(fromFile.totals(), `limit ${limit}`).toEqual(fromMemory.totals());
      expect(fromFile.atLeast(), `limit ${limit}`).toEqual(limit === undefined ? new Set() : new Set(["a"]));
      expect(fromFile.top(30).map((h) => h.asset.id)).toEqual(fromMemory.top(30).map((h) => h.asset.id));
    }
    expect(opened.find("rock", {}, { limit: 5000 }).totals().get("a")).toBe(5000);
  });
});
