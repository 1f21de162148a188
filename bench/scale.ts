/**
 * `npm run bench:scale`: the index engine (core/index/search-index.ts AssetIndex over its index file,
 * core/index/file.ts) on synthetic catalogues of 100,000 and 1,000,000 assets made from the
 * embedded index's real records (bench/scale-catalogue.ts). For each size:
 * - build: a child process generates the records, then AssetIndex.build and the index file
 *   written, timed (under the system's temporary folder, removed afterwards);
 * - load: a fresh child process opens the file in place (cold load), then searches the bench
 *   query mix (bench/queries.ts) as the service does with its seven indexed sources: RSS after
 *   opening and after the mix, time from the spawn of the process to its first complete answer,
 *   search p50/p95;
 * - browser: the browser index (core/index/browser/) written from the file, and the mix searched
 *   with its search.ts as a page's first visit: files and gzip bytes fetched, and how many of its
 *   first ten the index's own search has in its first ten.
 * The children are bench/scale-child.ts bundled by esbuild and run by plain node (as the built
 * server runs): no TypeScript transform in their start or their memory. The build child may use a
 * 16 GiB heap (the pipeline runs offline); the load child has node's default, as the server has.
 * A stage that throws, or a child that dies (out of memory), is printed with where it happened;
 * the run goes on. Usage: tsx bench/scale.ts [sizes…] (default 100000 1000000).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Inside the package, so the bundle's external imports resolve from node_modules. */
const CHILD = join(ROOT, "bench/results/scale/child.mjs");
const BUILD_HEAP_MIB = 16_384;
const SEED = 1;

interface Event {
  stage?: string;
  failed?: string;
  error?: string;
  at?: string[];
  firstAnswer?: number;
  result?: Record<string, unknown>;
}

interface ChildRun {
  events: Event[];
  /** Parent clock, ms from the spawn to the line `firstAnswer`. */
  firstAnswerAfterSpawnMs?: number;
  exit: string;
  stderrTail: string;
  lastStage?: string;
  failures: Event[];
  result?: Record<string, unknown>;
}

function runChild(args: string[], nodeFlags: string[], label: string): Promise<ChildRun> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, CHILD, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const run: ChildRun = { events: [], exit: "", stderrTail: "", failures: [] };
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  createInterface({ input: child.stdout }).on("line", (line) => {
    const at = performance.now();
    let e: Event;
    try {
      e = JSON.parse(line) as Event;
    } catch {
      return;
    }
    run.events.push(e);
    if (e.firstAnswer !== undefined) run.firstAnswerAfterSpawnMs = at - spawnedAt;
    if (e.stage) {
      run.lastStage = e.stage;
      console.log(`  [${label} ${((at - spawnedAt) / 1000).toFixed(1)} s] ${e.stage}`);
    }
    if (e.failed) run.failures.push(e);
    if (e.result) run.result = e.result;
  });
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      run.exit = signal ? `killed by ${signal}` : `exit code ${code}`;
      run.stderrTail = stderr.trim().split("\n").slice(-6).join("\n");
      resolve(run);
    });
  });
}

const ms = (x: unknown) => (typeof x === "number" ? `${x < 10 ? x.toFixed(2) : x.toFixed(0)} ms` : "—");
const MB = (bytes: unknown) => (typeof bytes === "number" ? `${(bytes / 1e6).toFixed(1)} MB` : "—");

/** What went wrong in a child: the stages that threw (with where), or how it died and in which stage. */
function problems(run: ChildRun, label: string): string[] {
  const lines = run.failures.map((f) => `  FAILED ${label}: ${f.failed}: ${f.error}\n    at ${f.at?.join("\n    at ")}`);
  if (run.exit !== "exit code 0") {
    lines.push(
      `  FAILED ${label}: the process ended (${run.exit}) during "${run.lastStage}"${run.stderrTail ? `:\n    ${run.stderrTail.split("\n").join("\n    ")}` : ""}`,
    );
  }
  return lines;
}

async function benchSize(n: number, dir: string) {
  console.log(`\n${n.toLocaleString("en")} assets`);
  const file = join(dir, `index-${n}.db`);
  const built = await runChild(["build", String(n), String(SEED), file], [`--max-old-space-size=${BUILD_HEAP_MIB}`], "build");
  const b = built.result ?? {};
  console.log(
    `  build (AssetIndex.build + write)      ${ms(typeof b.buildMs === "number" && typeof b.writeMs === "number" ? b.buildMs + b.writeMs : undefined)} (build ${ms(b.buildMs)}, write ${ms(b.writeMs)}; generating the records ${ms(b.generateMs)}, not counted)`,
  );
  console.log(`  file size                             ${MB(b.fileBytes)} (SQLite, not compressed)`);
  console.log(`  build process RSS                     ${b.rssAfterBuildMiB ?? "—"} MiB after build, peak ${b.peakRssMiB ?? "—"} MiB`);
  for (const line of problems(built, "build")) console.log(line);
  if (b.fileBytes === undefined) return { n, build: built, load: undefined };

  const loaded = await runChild(["load", file], [], "load");
  const l = loaded.result ?? {};
  const mix = l.mix as { p50Ms: number; p95Ms: number; maxMs: number; searches: number; firstRound: { p50Ms: number; maxMs: number } } | undefined;
  console.log(`  cold load (AssetIndex.open)           ${ms(l.openMs)}`);
  console.log(
    `  RSS                                   ${l.rssAfterOpenMiB ?? "—"} MiB after opening, ${l.rssAfterQueriesMiB ?? "—"} MiB after the mix (peak ${l.peakRssMiB ?? "—"} MiB)`,
  );
  console.log(
    `  first complete answer after start     ${ms(loaded.firstAnswerAfterSpawnMs)} (spawn to the first search's answer; that search ${ms(l.firstQueryMs)})`,
  );
  console.log(
    `  search p50 / p95                      ${ms(mix?.p50Ms)} / ${ms(mix?.p95Ms)} (max ${ms(mix?.maxMs)}, ${mix?.searches ?? 0} searches of the mix)`,
  );
  console.log(
    `  each query the first time             median ${ms(mix?.firstRound.p50Ms)}, max ${ms(mix?.firstRound.maxMs)} (nothing of it yet among what the index file store read lately)`,
  );
  for (const line of problems(loaded, "load")) console.log(line);

  const browsed = await runChild(["browser", file, join(dir, `browser-${n}`)], [], "browser");
  const w = browsed.result ?? {};
  const q = w.query as { p50Ms: number; maxMs: number; p50Files: number; p50GzipBytes: number; maxGzipBytes: number } | undefined;
  console.log(
    `  browser index (v1/browser/)           ${ms(w.writeMs)} to write, ${w.files ?? "—"} files, ${MB(w.bytes)} (median file ${MB(w.medianFileBytes)}, largest ${MB(w.largestFileBytes)})`,
  );
  console.log(
    `  browser search, first visit           median ${q?.p50Files ?? "—"} files, ${MB(q?.p50GzipBytes)} gzip (max ${MB(q?.maxGzipBytes)}); ${ms(q?.p50Ms)} median without the network`,
  );
  console.log(`  browser top 10 among the index's      ${typeof w.overlapAt10 === "number" ? `${(w.overlapAt10 * 100).toFixed(0)} %` : "—"}`);
  for (const line of problems(browsed, "browser")) console.log(line);
  return { n, build: built, load: loaded, browser: browsed };
}

const sizes = process.argv.slice(2).map(Number);
mkdirSync(join(ROOT, "bench/results/scale"), { recursive: true });
await esbuild.build({
  absWorkingDir: ROOT,
  entryPoints: ["bench/scale-child.ts"],
  outfile: CHILD,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  logLevel: "warning",
});
console.log(
  `scale bench: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.versions.node}; seed ${SEED}`,
);
console.log("targets at 1,000,000: first complete answer ≤ 1 s after start, RSS ≤ 1 GB, query p95 ≤ 20 ms");
const dir = mkdtempSync(join(tmpdir(), "asset-search-scale-"));
const runs = [];
try {
  for (const n of sizes.length ? sizes : [100_000, 1_000_000]) runs.push(await benchSize(n, dir));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
writeFileSync(
  join(ROOT, "bench/results/scale.json"),
  `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.versions.node, cpus: cpus().length, runs }, null, 2)}\n`,
);
