import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, onTestFailed } from "vitest";
import { currentSet, loadPublished, PUBLISHED_FILES } from "../core/publication/published.ts";
import { runPipeline } from "../pipeline/run.ts";
import { polyhaven } from "../sources/polyhaven.ts";
import { replayRuntime } from "./helpers/replay.ts";
import { seededRandom, seedFrom } from "./helpers/seeded.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CHILD = "test/helpers/publish-child.ts";
const OLD_DAY = "2026-11-21T04:00:00.000Z";
const NEW_DAY = "2026-11-22T04:00:00.000Z";
const KILLS = 50;
/** Where in its slice each kill lands comes from this seed: CRASH_SEED=<seed> repeats a run's schedule. */
const SEED = seedFrom("CRASH_SEED");

const scratch = mkdtempSync(join(tmpdir(), "asset-search-crash-"));
let serial = 0;
const freshDir = () => join(scratch, String(serial++));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What identifies a set: each of its three files says the day it was built. */
function setOf(dataDir: string) {
  const { catalog, index, history } = loadPublished(dataDir);
  return { catalog: catalog?.countedAt, index: index.builtAt, history: history.points.map((p) => p.date) };
}
const OLD = { catalog: OLD_DAY, index: OLD_DAY, history: ["2026-11-21"] };
const NEW = { catalog: NEW_DAY, index: NEW_DAY, history: ["2026-11-21", "2026-11-22"] };

/** The files a reader would open now: the pointer and its set, or the loose files of the layout before sets. */
function liveFiles(dataDir: string): string[] {
  const set = currentSet(dataDir);
  const files = Object.values(PUBLISHED_FILES);
  return set ? [join(dataDir, "current.json"), ...files.map((f) => join(dataDir, "sets", set, f))] : files.map((f) => join(dataDir, f));
}

const hasLeftovers = (dataDir: string) => readdirSync(dataDir, { recursive: true }).some((e) => String(e).includes(".tmp"));

/**
 * The old set twice, with a pointer and as the loose files of a deployment from before sets, and
 * the files of the next day's set as the replayed pipeline builds them on the old one.
 */
async function prepare() {
  const run = (dataDir: string, now: string) => runPipeline({ runtime: replayRuntime({ now: new Date(now) }), sources: [polyhaven], dataDir });
  const withPointer = freshDir();
  const { set: old } = await run(withPointer, OLD_DAY);
  const loose = freshDir();
  cpSync(join(withPointer, "sets", old), loose, { recursive: true });
  const next = freshDir();
  cpSync(withPointer, next, { recursive: true });
  const { set } = await run(next, NEW_DAY);
  expect([setOf(withPointer), setOf(loose), setOf(next)]).toEqual([OLD, OLD, NEW]);
  return { layouts: [withPointer, loose], prepared: join(next, "sets", set) };
}

/**
 * Publishes the prepared set into `dataDir` in a child process and SIGKILLs it `killAfterMs` after
 * it says "publishing" (never, when undefined). Resolves with the ms from "publishing" to "published".
 */
function runChild(dataDir: string, prepared: string, killAfterMs?: number): Promise<{ publishMs?: number }> {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, dataDir, prepared, NEW_DAY], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let publishing = 0;
  let publishMs: number | undefined;
  createInterface({ input: child.stdout }).on("line", (line) => {
    if (line === "publishing") {
      publishing = performance.now();
      if (killAfterMs !== undefined) setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    }
    if (line.startsWith("published ")) publishMs = performance.now() - publishing;
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0 || signal === "SIGKILL") resolve({ publishMs });
      else reject(new Error(`publish child exited with ${code ?? signal}: ${stderr}`));
    });
  });
}

describe("published set after a crash", () => {
  it(`${KILLS} kills while the pipeline publishes leave the old set or the new one, whole`, { timeout: 300_000 }, async () => {
    onTestFailed(() => console.error(`publish-crash: the kill schedule came from seed ${SEED}; run again with CRASH_SEED=${SEED}`));
    const random = seededRandom(SEED);
    const within = Array.from({ length: KILLS }, () => random());
    const { layouts, prepared } = await prepare();

    // One whole run measures how long publishing takes here; the kills spread over twice that.
    const measured = freshDir();
    cpSync(layouts[0]!, measured, { recursive: true });
    const { publishMs } = await runChild(measured, prepared);
    expect(setOf(measured)).toEqual(NEW);
    const spread = 2 * publishMs!;

    const seen = { old: 0, new: 0, interrupted: 0 };
    const killAt = async (i: number) => {
      const dataDir = freshDir();
      cpSync(layouts[i % 2]!, dataDir, { recursive: true });
      // Stratified: kill i lands at a seeded point within the i-th of KILLS equal slices of the spread.
      const killAfterMs = (spread * (i + within[i]!)) / KILLS;
      await runChild(dataDir, prepared, killAfterMs);
      const kill = `kill ${i} at ${killAfterMs.toFixed(1)} ms (seed ${SEED})`;
      for (const file of liveFiles(dataDir)) expect(statSync(file).size, `${kill}: ${file}`).toBeGreaterThan(0);
      const found = setOf(dataDir);
      expect([OLD, NEW], kill).toContainEqual(found);
      seen[found.history.length === 2 ? "new" : "old"]++;
      if (hasLeftovers(dataDir)) seen.interrupted++;
      return dataDir;
    };
    // Two at a time: starting a child (node, tsx, imports) is most of its time.
    const dirs: string[] = [];
    for (let i = 0; i < KILLS; i += 2) dirs.push(...(await Promise.all([killAt(i), killAt(i + 1)])));
    // Some kills came before the switch, some after, some in the middle of writing the set.
    const tally = `kills over ${spread.toFixed(1)} ms after "publishing", seed ${SEED}: ${JSON.stringify(seen)}`;
    expect(seen.old, tally).toBeGreaterThan(0);
    expect(seen.new, tally).toBeGreaterThan(0);
    expect(seen.interrupted, tally).toBeGreaterThan(0);

    // The next run after a kill publishes cleanly and clears what the killed one left.
    const after = dirs.find(hasLeftovers) ?? dirs[0]!;
    const { set } = await runPipeline({ runtime: replayRuntime({ now: new Date("2026-11-23T04:00:00Z") }), sources: [polyhaven], dataDir: after });
    expect(readdirSync(after).sort()).toEqual(["current.json", "sets"]);
    expect(readdirSync(join(after, "sets")).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect(currentSet(after)).toBe(set);
  });
});
