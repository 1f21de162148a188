/**
 * The fuzz suite: starts the real server (server/main.ts) on loopback over the recordings, sends
 * it the malformed requests of cases.ts, and checks what every answer must hold:
 * - no 5xx but the documented upstream ones (502 the source failed, 503 a source without its key,
 *   both on /v1/assets/*);
 * - every 4xx/5xx is JSON `{ error }`, or on /mcp a JSON-RPC error object;
 * - every request gets an answer; /health is still 200 afterwards;
 * - every case is sent twice; the server's RSS after a full garbage collection, `settleMs` after
 *   the second pass, is within 20 MB of the same after the first. The first pass is the warm-up:
 *   the modules a first request loads, the code V8 compiles and the index's bounded caches fill
 *   there, and are not a leak; a leak grows again with the second pass. gc-on-signal.ts runs the
 *   collection.
 *
 * `npm run fuzz` runs it at full size and prints the counts; test/fuzz.test.ts runs a smaller one
 * as part of `npm test`. Bounded in count and time; nothing leaves loopback.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { freePort, until } from "../helpers/daemon.ts";
import { type RawAnswer, rawRequest } from "../helpers/raw-request.ts";
import { FUZZ_KEY, type FuzzCase, fuzzCases } from "./cases.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CONCURRENCY = 6;
const REQUEST_TIMEOUT_MS = 15_000;
const RSS_MARGIN_BYTES = 20 * 1024 * 1024;

export interface FuzzOptions {
  count: number;
  seed: number;
  /** Wait after the last request before the RSS is read again. */
  settleMs: number;
  /** No new request is sent past this; unbounded without it (test/fuzz.test.ts sends every case). */
  maxMs?: number;
}

export interface FuzzReport {
  seed: number;
  sent: number;
  notSent: number;
  byCategory: Record<string, number>;
  byStatus: Record<string, number>;
  violations: string[];
  healthAfter: number | undefined;
  rssStartBytes: number;
  rssAfterBytes: number;
  ms: number;
}

/** The server `npm start` runs, from its TypeScript (as `npm run dev` does), over the recordings, with a key, a limit too high to reach and one trusted proxy hop. */
async function startServer(): Promise<{ base: string; child: ChildProcess; log: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", "--import", "./test/fuzz/gc-on-signal.ts", "server/main.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: "127.0.0.1",
      ASSET_SERVER_REPLAY: "test/fixtures",
      ASSET_SERVER_API_KEY: FUZZ_KEY,
      RATE_LIMIT_PER_MINUTE: "1000000",
      TRUST_PROXY: "1",
      GOOGLE_FONTS_API_KEY: "REPLAY_KEY",
      SOURCE_TIMEOUT_MS: "2000",
      SEARCH_DEADLINE_MS: "3000",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr!.on("data", (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000)));
  const base = `http://127.0.0.1:${port}`;
  await until(
    "the fuzzed server's /health",
    async () => ((await fetch(`${base}/health`)).ok ? true : undefined),
    30_000,
    () => log,
  );
  return { base, child, log: () => log };
}

/** The server's RSS after a full garbage collection (gc-on-signal.ts answers the signal on stderr). */
async function rssAfterGc(child: ChildProcess): Promise<number> {
  const answer = new Promise<number>((resolve) => {
    const read = (chunk: Buffer) => {
      const rss = /fuzz-gc rss=(\d+)/.exec(chunk.toString())?.[1];
      if (!rss) return;
      child.stderr!.off("data", read);
      resolve(Number(rss));
    };
    child.stderr!.on("data", read);
  });
  child.kill("SIGUSR2");
  return answer;
}

/** Splits a raw HTTP/1.1 answer; undefined until its head and (length-framed or chunked) body are complete. */
function parseRaw(text: string): RawAnswer | undefined {
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const [statusLine = "", ...lines] = text.slice(0, end).split("\r\n");
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
  let body = text.slice(end + 4);
  if (headers["transfer-encoding"] === "chunked") {
    if (!body.endsWith("0\r\n\r\n")) return undefined;
    let out = "";
    for (let rest = body; ; ) {
      const size = parseInt(rest, 16);
      if (!size) break;
      const start = rest.indexOf("\r\n") + 2;
      out += rest.slice(start, start + size);
      rest = rest.slice(start + size + 2);
    }
    body = out;
  } else if (headers["content-length"] !== undefined && Buffer.byteLength(body) < Number(headers["content-length"])) return undefined;
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}

function sendRaw(base: string, bytes: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = "";
    const finish = () => {
      socket.destroy();
      const answer = parseRaw(text);
      if (answer) resolve(answer);
      else reject(new Error(text ? `an incomplete answer: ${JSON.stringify(text.slice(0, 120))}` : "the connection closed without an answer"));
    };
    socket.setTimeout(REQUEST_TIMEOUT_MS, finish);
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (parseRaw(text)) finish();
    });
    socket.on("close", finish);
    socket.on("error", () => finish());
    socket.end(Buffer.from(bytes, "latin1"));
  });
}

const isMcp = (c: FuzzCase) => c.kind === "http" && /^\/mcp\/?$/.test(new URL(c.path, "http://x").pathname);
const isAsset = (c: FuzzCase) => c.kind === "http" && new URL(c.path, "http://x").pathname.startsWith("/v1/assets/");

/** What is wrong with this answer, or undefined. */
function violation(c: FuzzCase, a: RawAnswer): string | undefined {
  if (a.status >= 500 && !((a.status === 502 || a.status === 503) && isAsset(c))) return `${a.status} is not a documented upstream failure`;
  if (a.status < 400 || (c.kind === "http" && c.method === "HEAD")) return undefined;
  let body: { error?: unknown; jsonrpc?: unknown } | undefined;
  try {
    body = JSON.parse(a.body) as typeof body;
  } catch {
    return `${a.status} with a body that is not JSON: ${JSON.stringify(a.body.slice(0, 80))}`;
  }
  if (typeof body?.error === "string") return undefined;
  const rpc = body?.error as { code?: unknown; message?: unknown } | undefined;
  if (isMcp(c) && body?.jsonrpc === "2.0" && typeof rpc?.code === "number" && typeof rpc.message === "string") return undefined;
  return `${a.status} without an { error } body: ${a.body.slice(0, 80)}`;
}

const describeCase = (c: FuzzCase) =>
  c.kind === "raw" ? `raw ${JSON.stringify(c.bytes.slice(0, 80))}` : `${c.method} ${c.path.slice(0, 100)} ${JSON.stringify(c.headers).slice(0, 100)}`;

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const cases = fuzzCases(options.count, options.seed);
  const server = await startServer();
  const started = Date.now();
  const report: FuzzReport = {
    seed: options.seed,
    sent: 0,
    notSent: 0,
    byCategory: {},
    byStatus: {},
    violations: [],
    healthAfter: undefined,
    rssStartBytes: 0,
    rssAfterBytes: 0,
    ms: 0,
  };
  try {
    let next = 0;
    let end = 0;
    const worker = async () => {
      for (let i = next++; i < end; i = next++) {
        const c = cases[i]!;
        if (options.maxMs !== undefined && Date.now() - started > options.maxMs) {
          report.notSent++;
          continue;
        }
        report.sent++;
        report.byCategory[c.category] = (report.byCategory[c.category] ?? 0) + 1;
        try {
          const answer = c.kind === "raw" ? await sendRaw(server.base, c.bytes) : await rawRequest(server.base, c.method, c.path, c.headers, c.body);
          report.byStatus[answer.status] = (report.byStatus[answer.status] ?? 0) + 1;
          const wrong = violation(c, answer);
          if (wrong) report.violations.push(`${wrong} ← ${describeCase(c)}`);
        } catch (err) {
          report.byStatus["no answer"] = (report.byStatus["no answer"] ?? 0) + 1;
          report.violations.push(`${(err as Error).message} ← ${describeCase(c)}`);
        }
      }
    };
    const run = async (upTo: number) => {
      end = upTo;
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      next = upTo;
    };
    await run(cases.length);
    report.rssStartBytes = await rssAfterGc(server.child);
    next = 0;
    await run(cases.length);
    report.ms = Date.now() - started;
    report.healthAfter = (await fetch(`${server.base}/health`)).status;
    await new Promise((r) => setTimeout(r, options.settleMs));
    report.rssAfterBytes = await rssAfterGc(server.child);
  } finally {
    server.child.kill("SIGKILL");
  }
  if (server.log().includes("internal error") || /\n\s+at /.test(server.log()))
    report.violations.push(`the server logged a stack:\n${server.log().slice(-2000)}`);
  return report;
}

/** What must hold, as a list of failures (empty = the run passed). */
export function failures(report: FuzzReport): string[] {
  const out = [...report.violations];
  if (report.healthAfter !== 200) out.push(`/health answered ${report.healthAfter} after the run`);
  if (report.rssAfterBytes > report.rssStartBytes + RSS_MARGIN_BYTES) {
    out.push(`RSS ${mb(report.rssAfterBytes)} after the second pass, over ${mb(report.rssStartBytes)} after the first pass + 20 MB`);
  }
  return out;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function printReport(report: FuzzReport): string {
  const lines = [
    `fuzz: seed ${report.seed}, ${report.sent} requests sent over two passes (${report.notSent} not sent: time bound) in ${(report.ms / 1000).toFixed(1)} s`,
    ...Object.entries(report.byCategory).map(([k, v]) => `  ${k}: ${v}`),
    `  by status: ${Object.entries(report.byStatus)
      .map(([k, v]) => `${k}×${v}`)
      .join(" ")}`,
    `  5xx: ${Object.entries(report.byStatus)
      .filter(([k]) => k.startsWith("5"))
      .reduce((n, [, v]) => n + v, 0)} (502/503 from /v1/assets/* only)`,
    `  /health after: ${report.healthAfter}; RSS ${mb(report.rssStartBytes)} after the first pass, ${mb(report.rssAfterBytes)} after the second (each after a full collection)`,
    `  violations: ${report.violations.length}`,
    ...report.violations.slice(0, Number(process.env.FUZZ_SHOW ?? 20)).map((v) => `    ${v}`),
  ];
  return lines.join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      count: { type: "string", default: "1600" },
      seed: { type: "string", default: String(Date.now() % 1_000_000) },
      "settle-ms": { type: "string", default: "60000" },
      "max-ms": { type: "string", default: "300000" },
    },
  });
  const report = await runFuzz({
    count: Number(values.count),
    seed: Number(values.seed),
    settleMs: Number(values["settle-ms"]),
    maxMs: Number(values["max-ms"]),
  });
  console.log(printReport(report));
  const failed = failures(report);
  if (failed.length) {
    console.error(`fuzz: FAILED (${failed.length}); reproduce with npm run fuzz -- --seed ${report.seed} --count ${values.count}`);
    process.exitCode = 1;
  }
}
