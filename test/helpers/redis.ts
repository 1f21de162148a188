/**
 * A REAL redis-server (Debian's package, installed by test/setup/install-packages.sh) on
 * 127.0.0.1 on a free port, without persistence; fails without the binary, naming the fix.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { freePort } from "./daemon.ts";

const BIN = process.env.REDIS_SERVER_BIN ?? "/usr/bin/redis-server";

export interface RedisDaemon {
  port: number;
  url: string;
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts redis-server and resolves once it accepts connections; rejects with its log otherwise.
 * `port` starts it again where a stopped one listened, so its clients reconnect (test/soak/).
 */
export async function startRedis(options: { port?: number } = {}): Promise<RedisDaemon> {
  if (!existsSync(BIN)) {
    throw new Error(`${BIN} is missing: run sh test/setup/install-packages.sh (npm test runs it first), or set REDIS_SERVER_BIN to a redis-server binary`);
  }
  const port = options.port ?? (await freePort());
  const child = spawn(BIN, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const log = () => output;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start within 10 s\n--- redis log ---\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}\n--- redis log ---\n${output}`));
    });
  });
  return { port, url: `redis://127.0.0.1:${port}`, log, stop: () => stop(child) };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}
