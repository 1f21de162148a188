/**
 * Cold start: from spawning the server process to its first `/health` 200, polled every 5 ms on
 * 127.0.0.1 at a free port. Three ways, alternated run by run, each started once beforehand and
 * not counted (the first run of each would otherwise pay for the disk cache):
 * - old: the tsx command on server/main.ts, what `npm start` ran before bin/start.js;
 * - built: `node dist/server/main.js`, what `npm start` runs now once dist/ is fresh;
 * - start: `node bin/start.js`, the built server plus the freshness check of bin/freshness.js.
 * npm's own startup (a few hundred ms, the same on both sides) is in none of them.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { get } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "../bin/freshness.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The tsx command (package.json `bin` of tsx), run by the same node as the others. */
const TSX_CLI = join(ROOT, "node_modules/tsx/dist/cli.mjs");

export const WAYS = {
  old: [TSX_CLI, "server/main.ts"],
  built: ["dist/server/main.js"],
  start: ["bin/start.js"],
} as const;
type Way = keyof typeof WAYS;

async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

/** The status of GET /health, or 0 when nothing answers yet. */
function health(port: number): Promise<number> {
  return new Promise((resolve) => {
    const request = get({ host: "127.0.0.1", port, path: "/health", agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    request.on("error", () => resolve(0));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
}

/** Milliseconds from spawn to the first /health 200 of one process, which is then stopped. */
export async function coldStart(way: Way, timeoutMs = 30_000): Promise<number> {
  const port = await freePort();
  // TEST and CI make srvx skip its signal handling; the bench measures the server as production runs it.
  const { TEST: _test, CI: _ci, ...env } = process.env;
  const started = performance.now();
  const child = spawn(process.execPath, [...WAYS[way]], { cwd: ROOT, env: { ...env, HOST: "127.0.0.1", PORT: String(port) }, stdio: "ignore" });
  try {
    while ((await health(port)) !== 200) {
      if (child.exitCode !== null) throw new Error(`${way}: the server exited with ${child.exitCode} before /health answered`);
      if (performance.now() - started > timeoutMs) throw new Error(`${way}: no /health 200 within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return performance.now() - started;
  } finally {
    await stop(child);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export interface ColdStartResult {
  runs: number;
  ms: Record<Way, number[]>;
  medianMs: Record<Way, number>;
  /** built ÷ old (target ≤ 0.5) */
  ratio: number;
  /** start ÷ old: `npm start` now, npm aside */
  startRatio: number;
}

export async function benchColdStart(runs = 7): Promise<ColdStartResult> {
  await ensureBuilt(ROOT, "server/main");
  const ways = Object.keys(WAYS) as Way[];
  for (const way of ways) await coldStart(way);
  const ms = { old: [], built: [], start: [] } as Record<Way, number[]>;
  for (let run = 0; run < runs; run++) {
    for (const way of ways) ms[way].push(Math.round(await coldStart(way)));
  }
  const medianMs = { old: median(ms.old), built: median(ms.built), start: median(ms.start) };
  return { runs, ms, medianMs, ratio: medianMs.built / medianMs.old, startRatio: medianMs.start / medianMs.old };
}
