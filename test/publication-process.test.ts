import { execFile } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { checkFile, IndexMeta, loadPublished } from "../core/publication/published.ts";
import { runPipeline } from "../pipeline/run.ts";
import { SOURCES } from "../sources/index.ts";
import { FIXTURES, replayRuntime } from "./helpers/replay.ts";
import { scratchDirs } from "./helpers/scratch.ts";

// `npm run pipeline` and `npm run publication` as the workflow runs them: child processes with
// their own environment, answered from the recordings (or from nothing, for a run where every
// source fails), with the GitHub Actions output and summary files in a scratch folder.

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);
const scratch = scratchDirs("asset-search-publication-");

/** The parent's environment without anything that would steer the child (or write into a real job's summary). */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(GITHUB_|RUNNER_|ASSET_SERVER_|DATA_DIR$|PREVIOUS_URL$|SOURCE_DATE_EPOCH$|MAX_FAILED_SHARE$|MAX_LISTINGS_DROP$)/.test(k),
    ),
  );
  return { ...clean, HTTP_RETRIES: "0", ...env };
}

/** Runs a script of pipeline/ in a child process; resolves with its exit code and output. */
async function script(file: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", file, ...args], { cwd: ROOT, env: childEnv(env) });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const RECORDINGS = { ASSET_SERVER_REPLAY: FIXTURES, GOOGLE_FONTS_API_KEY: "REPLAY_KEY" };
const EPOCH = "1795000000"; // 2026-11-18T11:06:40Z

/** Every file below `dir` by relative path, with its bytes. */
function snapshot(dir: string): Record<string, Buffer> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return Object.fromEntries(files.map((e) => [join(e.parentPath, e.name).slice(dir.length + 1), readFileSync(join(e.parentPath, e.name))]));
}

/** An empty file in a scratch folder, as the runner creates GITHUB_OUTPUT and GITHUB_STEP_SUMMARY for each step. */
const jobFile = () => {
  const path = join(scratch(), "file");
  writeFileSync(path, "");
  return path;
};

/** The outputs @actions/core wrote to GITHUB_OUTPUT (`name<<delimiter`, value, delimiter). */
function outputs(file: string): Record<string, string> {
  const text = readFileSync(file, "utf8");
  return Object.fromEntries([...text.matchAll(/^(\w+)<<(\S+)\n([\s\S]*?)\n\2$/gm)].map((m) => [m[1]!, m[3]!]));
}

/** The sources that count or crawl: those the guard's share is of. */
const WORKING_SOURCES = SOURCES.filter((s) => s.mode !== "link" && (s.census || s.mode === "indexed")).length;

describe("the publication, built from the recordings", () => {
  it("is the same bytes twice with the same SOURCE_DATE_EPOCH, and every file matches the meta", { timeout: 120_000 }, async () => {
    const builds: { dataDir: string; out: string }[] = [];
    for (let i = 0; i < 2; i++) {
      const dataDir = scratch();
      const out = scratch();
      const pipeline = await script("pipeline/main.ts", [], { ...RECORDINGS, DATA_DIR: dataDir, SOURCE_DATE_EPOCH: EPOCH });
      expect(pipeline.code, pipeline.stdout + pipeline.stderr).toBe(0);
      const publication = await script("pipeline/export.ts", [out], { DATA_DIR: dataDir });
      expect(publication.code, publication.stderr).toBe(0);
      builds.push({ dataDir, out });
    }
    const [first, second] = builds as [(typeof builds)[0], (typeof builds)[0]];
    const files = snapshot(first.out);
    const browser = (name: string) => name.startsWith("v1/browser/");
    expect(
      Object.keys(files)
        .filter((name) => !browser(name))
        .sort(),
    ).toEqual(["v1/catalog-history.json", "v1/catalog.json", "v1/index.db", "v1/index.json.gz", "v1/index.meta.json"]);
    expect(Object.keys(files).filter(browser)).toEqual(expect.arrayContaining(["v1/browser/meta.json", "v1/browser/search.js", "v1/browser/terms/index.json"]));
    const again = snapshot(second.out);
    // Every file the same bytes, the browser index's too.
    expect(Object.keys(again).sort()).toEqual(Object.keys(files).sort());
    for (const [name, bytes] of Object.entries(files)) expect(again[name]?.equals(bytes), name).toBe(true);
    // DATA_DIR too: the same set name (build time and content) and the same bytes.
    const [setA, setB] = [snapshot(first.dataDir), snapshot(second.dataDir)];
    expect(Object.keys(setB).sort()).toEqual(Object.keys(setA).sort());
    for (const [name, bytes] of Object.entries(setA)) expect(setB[name]?.equals(bytes), name).toBe(true);

    const meta = IndexMeta.parse(JSON.parse(files["v1/index.meta.json"]!.toString("utf8")));
    expect(meta.builtAt).toBe("2026-11-18T11:06:40.000Z");
    expect(loadPublished(first.dataDir).catalog?.countedAt).toBe("2026-11-18T11:06:40.000Z");
    for (const name of ["catalog.json", "catalog-history.json", "index.json.gz", "index.db"]) checkFile(meta, name, files[`v1/${name}`]!);
    // The gzip header's MTIME field (bytes 4 to 7) is zero: the index embeds no time of its own.
    expect([...files["v1/index.json.gz"]!.subarray(0, 8)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]);
    expect(meta.counts.assets).toBe([...loadPublished(first.dataDir).index.records()].length);
  });

  it("reports to GitHub Actions: outputs, an annotation per failed source, an escaped summary", { timeout: 60_000 }, async () => {
    const dataDir = scratch();
    const output = jobFile();
    const summary = jobFile();
    const res = await script("pipeline/main.ts", [], {
      ...RECORDINGS,
      DATA_DIR: dataDir,
      SOURCE_DATE_EPOCH: EPOCH,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    const catalog = loadPublished(dataDir).catalog!;
    // The recordings lack these sources' census (or their key): seven failures, under MAX_FAILED_SHARE's 0.5.
    const failing = ["polyfork", "hdrmaps", "openverse", "freesound", "jamendo", "thingiverse", "3dassetsone"];
    expect(outputs(output)).toEqual({ listings: String(catalog.totals.listings.count), sources_failed: String(failing.length) });
    const annotations = res.stdout.split("\n").filter((l) => l.startsWith("::error"));
    expect(annotations.map((l) => /^::error title=(\w+) failed::/.exec(l)?.[1])).toEqual(failing);
    expect(res.stdout).toMatch(/^::group::census and crawl$/m);

    const html = readFileSync(summary, "utf8");
    expect(html).toContain(`<h2>Catalog census 2026-11-18T11:06:40.000Z</h2>`);
    expect(html).toContain(`<tr><th>source</th><th>census</th><th>crawl</th><th>assets</th><th>ms</th><th>error</th></tr>`);
    // hdrmaps's failing URL holds `&`: written as a character reference, never as markup.
    expect(html).toContain("products?per_page=100&#38;category=");
    expect(html).not.toContain("per_page=100&category");
  });
});

describe("the guard, in the pipeline's process", () => {
  it("exits non-zero and leaves the previous publication untouched when every source fails", { timeout: 60_000 }, async () => {
    const dataDir = scratch();
    const runtime = replayRuntime({ now: new Date("2026-11-17T04:00:00Z"), env: { GOOGLE_FONTS_API_KEY: "REPLAY_KEY" } });
    await runPipeline({ runtime, sources: SOURCES, dataDir });
    const before = snapshot(dataDir);

    const output = jobFile();
    // No recordings at all: every request fails, as with a broken network.
    const res = await script("pipeline/main.ts", [], { ASSET_SERVER_REPLAY: scratch(), DATA_DIR: dataDir, GITHUB_OUTPUT: output });
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(
      `::error::${WORKING_SOURCES} of ${WORKING_SOURCES} sources failed (100%25, more than MAX_FAILED_SHARE 0.5): nothing published`,
    );
    expect(outputs(output).sources_failed).toBe(String(WORKING_SOURCES));
    const after = snapshot(dataDir);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const [name, bytes] of Object.entries(before)) expect(after[name]?.equals(bytes), name).toBe(true);
  });

  it("publishes nothing on a first run whose every source fails", { timeout: 60_000 }, async () => {
    const dataDir = scratch();
    const res = await script("pipeline/main.ts", [], { ASSET_SERVER_REPLAY: scratch(), DATA_DIR: dataDir });
    expect(res.code).toBe(1);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it("fails with a message naming a bad variable", { timeout: 60_000 }, async () => {
    const dataDir = scratch();
    const res = await script("pipeline/main.ts", [], { ASSET_SERVER_REPLAY: scratch(), DATA_DIR: dataDir, MAX_LISTINGS_DROP: "30%" });
    expect(res.code).toBe(1);
    // A workflow command writes `%` as `%25`; the job's log shows it decoded.
    expect(res.stdout.trim()).toBe("::error::MAX_LISTINGS_DROP must be a share from 0 to 1 (such as 0.3), got '30%25'");
    expect(readdirSync(dataDir)).toEqual([]);
  });
});

describe("npm run publication", () => {
  it("says how to call it, and fails when DATA_DIR has nothing published", { timeout: 60_000 }, async () => {
    const usage = await script("pipeline/export.ts", [], { DATA_DIR: scratch() });
    expect(usage.code).toBe(2);
    expect(usage.stderr.trim()).toBe("usage: npm run publication -- <outDir>   (copies DATA_DIR's live set to <outDir>/v1/)");
    const dataDir = scratch();
    const empty = await script("pipeline/export.ts", [scratch()], { DATA_DIR: dataDir });
    expect(empty.code).toBe(1);
    expect(empty.stderr.trim()).toBe(`${dataDir} has no current.json: no set to publish (run the pipeline first)`);
  });
});
