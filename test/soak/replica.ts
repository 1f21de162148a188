/**
 * One replica of the soak: the server `npm run dev` runs (server/main.ts through tsx) in a child
 * process on 127.0.0.1, with its Prometheus listener on another loopback port. It loads
 * test/fuzz/gc-on-signal.ts, so its memory can be read after full garbage collections: memory
 * still held, not garbage a busy machine has not collected yet.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";
import type { Readiness } from "../../core/schemas/index.ts";
import { freePort, until } from "../helpers/daemon.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Log lines kept for a failure's message. */
const LOG_TAIL_CHARS = 20_000;

/** Bytes: the process's RSS, and of it V8's heap in use and the memory outside it that JavaScript objects hold (buffers). */
export interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
}

export interface ReplicaOptions {
  name: string;
  dataDir: string;
  replayDir: string;
  redisUrl: string;
}

export interface Replica {
  name: string;
  base: string;
  pid: number;
  pool: Pool;
  /** Memory after full garbage collections, read on an idle process (the caller holds the load). */
  memoryAfterGc(): Promise<Memory>;
  /** The highest RSS of the process so far (VmHWM), in bytes; undefined off Linux. */
  peakRss(): number | undefined;
  /** The sum of a metric's series whose labels include `labels`, read from /metrics. */
  counter(name: string, labels: Record<string, string>): Promise<number>;
  ready(): Promise<{ status: number; body: Readiness }>;
  /** Log lines at error or fatal, and the lines of a stack, as written. */
  errors(): string[];
  /** Counts of warn lines by their `event` (`text`: plain lines that are no stack). */
  warnings(): Record<string, number>;
  logTail(): string;
  /** SIGTERM, then the exit code once it exited (null = killed by a signal, as it is 20 s after SIGTERM). */
  stop(): Promise<number | null>;
  kill(): void;
}

/** The environment of a replica: production settings but for what the soak needs to see within minutes. */
function env(options: ReplicaOptions, port: number, metricsPort: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    HOST: "127.0.0.1",
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    DATA_DIR: options.dataDir,
    DATA_POLL_SECONDS: "10",
    ASSET_SERVER_REPLAY: options.replayDir,
    REDIS_URL: options.redisUrl,
    REDIS_REQUIRED: "true",
    // Every client of the soak is 127.0.0.1: a limit it never reaches, still counted in Redis on every request.
    RATE_LIMIT_PER_MINUTE: "1000000",
    // No upstream cache: each search asks the sources, so the replayed faults come after a number of searches (faults.ts).
    HTTP_CACHE_TTL_MS: "0",
    LOG_LEVEL: "warn",
    SHUTDOWN_GRACE_MS: "10000",
  };
}

export async function startReplica(options: ReplicaOptions): Promise<Replica> {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(process.execPath, ["--expose-gc", "--import", "tsx", "--import", "./test/fuzz/gc-on-signal.ts", "server/main.ts"], {
    cwd: ROOT,
    env: env(options, port, metricsPort),
    stdio: ["ignore", "ignore", "pipe"],
  });
  let tail = "";
  let partial = "";
  const errors: string[] = [];
  const warnings: Record<string, number> = {};
  const gcWaiters: (() => void)[] = [];
  const read = (line: string) => {
    let entry: { level?: string; event?: string };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      // A plain line is a stack's, or a message written around the logger (counted as such).
      if (/^\s+at |Error\b/.test(line)) errors.push(line);
      else warnings.text = (warnings.text ?? 0) + 1;
      return;
    }
    if (entry.level === "warn") warnings[entry.event ?? "other"] = (warnings[entry.event ?? "other"] ?? 0) + 1;
    else if (entry.level === "error" || entry.level === "fatal") errors.push(line);
  };
  child.stderr!.on("data", (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-LOG_TAIL_CHARS);
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop()!;
    for (const line of lines) {
      if (/^fuzz-gc rss=\d+$/.test(line)) gcWaiters.shift()?.();
      else if (line.trim()) read(line);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const metrics = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const ready = async () => {
    const res = await fetch(`${base}/ready`);
    return { status: res.status, body: (await res.json()) as Readiness };
  };
  await until(
    `replica ${options.name}'s /ready`,
    async () => ((await ready()).status === 200 ? true : undefined),
    60_000,
    () => tail,
  );
  return {
    name: options.name,
    base,
    pid: child.pid!,
    // No bound on connections: a request never queues in the harness behind a hung search, so its time is the server's.
    pool: new Pool(base),
    memoryAfterGc: async () => {
      // Twice, a second apart: right after one collection V8 still holds the pages it is releasing
      // and the young generation it grew under load, which the second, on an idle process, gives back.
      for (let i = 0; i < 2; i++) {
        await new Promise<void>((resolve) => {
          gcWaiters.push(resolve);
          child.kill("SIGUSR2");
        });
        await sleep(1000);
      }
      const text = await metrics();
      const read = (name: string) => sumCounter(text, `asset_search_${name}`, {});
      return { rss: read("process_resident_memory_bytes"), heapUsed: read("nodejs_heap_size_used_bytes"), external: read("nodejs_external_memory_bytes") };
    },
    peakRss: () => {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(procStatus(child.pid!))?.[1];
      return hwm ? Number(hwm) * 1024 : undefined;
    },
    counter: async (name, labels) => sumCounter(await metrics(), name, labels),
    ready,
    errors: () => errors,
    warnings: () => warnings,
    logTail: () => tail,
    stop: async () => {
      child.kill("SIGTERM");
      // Past its grace (SHUTDOWN_GRACE_MS) and some, a replica that has not exited is killed: the check then sees no exit code 0.
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      return exited.finally(() => clearTimeout(timer));
    },
    kill: () => child.kill("SIGKILL"),
  };
}

function procStatus(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return "";
  }
}

/** The sum of `name`'s series (Prometheus text format) whose labels include every pair of `labels`. */
export function sumCounter(text: string, name: string, labels: Record<string, string>): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    const m = /^([a-z_:]+)(?:\{(.*)\})? ([0-9.e+-]+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(m[3]);
  }
  return sum;
}
