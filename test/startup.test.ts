/**
 * Start-up that explains itself, on the real process (`node --import tsx server/main.ts`): each
 * configuration or start-up error is one stderr line naming the variable, its value and the fix,
 * with exit code 1 and no stack trace; a DATA_DIR with nothing published stops the start unless
 * DATA_URL is set, in which case the server starts empty and /ready says so.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, until } from "./helpers/daemon.ts";
import { SERVER } from "./helpers/entry.ts";
import { scratchDirs } from "./helpers/scratch.ts";
import { staticServer } from "./helpers/static-server.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const tempDir = scratchDirs("startup-", afterAll);

/** Runs the server with `env` until it exits (or `whileUp` is done with it, then SIGTERM): its code and stderr. */
async function run(env: Record<string, string>, whileUp?: (log: () => string) => Promise<void>): Promise<{ code: number | null; stderr: string }> {
  const { TEST: _test, CI: _ci, ...inherited } = process.env;
  const child = spawn(process.execPath, SERVER, {
    cwd: ROOT,
    env: { ...inherited, HOST: "127.0.0.1", PORT: String(await freePort()), ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  if (whileUp) {
    await until(
      "the server to listen",
      async () => (stderr.includes("asset-search listening") ? true : undefined),
      20_000,
      () => stderr,
    );
    await whileUp(() => stderr);
    child.kill("SIGTERM");
  }
  return { code: await exited, stderr };
}

/** The error line: the only line, no stack trace. */
function oneLine(result: { code: number | null; stderr: string }): string {
  expect(result.code).toBe(1);
  const lines = result.stderr.trim().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  return lines[0]!;
}

async function occupied(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, server };
}

describe("start-up errors", () => {
  it("PORT=abc", async () => {
    expect(oneLine(await run({ PORT: "abc" }))).toBe(
      "asset-search: PORT must be a port number from 0 to 65535, got 'abc': set PORT to a free port, such as 8787",
    );
  });

  it("a bad number in another variable", async () => {
    expect(oneLine(await run({ HTTP_RETRIES: "-1" }))).toBe(
      "asset-search: HTTP_RETRIES must be a non-negative number, got '-1': set a whole number (unset = 2)",
    );
    expect(oneLine(await run({ SHUTDOWN_GRACE_MS: "30s" }))).toBe(
      "asset-search: SHUTDOWN_GRACE_MS must be a non-negative number, got '30s': set a whole number (unset = 30000)",
    );
  });

  it("a LOG_LEVEL that is no level", async () => {
    expect(oneLine(await run({ LOG_LEVEL: "verbose" }))).toBe(
      "asset-search: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got 'verbose': set one of them (unset = info)",
    );
  });

  it("a port already in use, public or metrics", async () => {
    const taken = await occupied();
    try {
      expect(oneLine(await run({ PORT: String(taken.port) }))).toBe(
        `asset-search: PORT=${taken.port}: the port is already in use on 127.0.0.1: stop what listens there, or set PORT to a free port`,
      );
      const second = await run({ METRICS_PORT: String(taken.port) });
      expect(second.code).toBe(1);
      expect(second.stderr).not.toMatch(/^\s+at /m);
      expect(second.stderr.trim().split("\n").at(-1)).toBe(
        `asset-search: METRICS_PORT=${taken.port}: the port is already in use on 127.0.0.1: stop what listens there, or set METRICS_PORT to a free port`,
      );
    } finally {
      taken.server.close();
    }
  });

  it("REDIS_REQUIRED without REDIS_URL", async () => {
    expect(oneLine(await run({ REDIS_REQUIRED: "true" }))).toBe(
      "asset-search: REDIS_REQUIRED is 'true' but REDIS_URL is unset: set REDIS_URL, or REDIS_REQUIRED=false",
    );
  });

  it("ASSET_SERVER_REPLAY naming no folder", async () => {
    expect(oneLine(await run({ ASSET_SERVER_REPLAY: "/nonexistent" }))).toBe(
      "asset-search: ASSET_SERVER_REPLAY=/nonexistent is not a folder: set it to a folder of recordings (the project's are in test/fixtures), or unset it to ask the real sites",
    );
  });

  it("DATA_DIR missing, or holding no published set", async () => {
    const fix =
      "build a set there with `npm run pipeline`, set DATA_DIR to a folder that holds one, or set DATA_URL to a publication to start empty and follow it";
    expect(oneLine(await run({ DATA_DIR: "/nonexistent" }))).toBe(`asset-search: DATA_DIR=/nonexistent does not exist: ${fix}`);
    const empty = tempDir();
    expect(oneLine(await run({ DATA_DIR: empty }))).toBe(
      `asset-search: DATA_DIR=${empty} holds no published set (no current.json, catalog.json or index.json.gz): ${fix}`,
    );
  });

  it("with DATA_URL, an empty DATA_DIR starts empty: /ready 503 until the publication is there", async () => {
    const files = await staticServer(tempDir());
    const port = await freePort();
    try {
      const result = await run({ PORT: String(port), DATA_DIR: "/nonexistent", DATA_URL: files.url, DATA_POLL_SECONDS: "10" }, async () => {
        const res = await fetch(`http://127.0.0.1:${port}/ready`);
        expect(res.status).toBe(503);
        expect(((await res.json()) as { reasons: string[] }).reasons).toEqual([`no published data loaded yet: waiting for DATA_URL (${files.url})`]);
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(`data: DATA_DIR=/nonexistent holds no published set and DATA_URL=${files.url} could not be read`);
      expect(result.stderr).toContain("starting empty: /ready answers 503 until it is loaded");
    } finally {
      await files.close();
    }
  });

  it("with DATA_URL unreadable, an empty DATA_DIR and DATA_POLL_SECONDS=0 nothing would ever load: refused", async () => {
    const files = await staticServer(tempDir());
    try {
      const line = oneLine(await run({ DATA_DIR: "/nonexistent", DATA_URL: files.url, DATA_POLL_SECONDS: "0" }).then(lastLineOnly));
      expect(line).toMatch(/DATA_POLL_SECONDS=0 never asks again: fix DATA_URL, or set DATA_POLL_SECONDS to check again$/);
    } finally {
      await files.close();
    }
  });
});

/** The follower logs its failed check before the error line; only the error line is the start's. */
function lastLineOnly(result: { code: number | null; stderr: string }): { code: number | null; stderr: string } {
  return { ...result, stderr: `${result.stderr.trim().split("\n").at(-1)}\n` };
}
