/**
 * The image's runtime layout without a container runtime: the Dockerfile's last stage is read and
 * replayed in a clean folder under .scratch/ — its COPY lines (the build stage's dist/ made here by
 * bin/build.js, as its `npm run build` does), its production install, its ENV — then its CMD is
 * started on loopback and must answer /ready 200, its HEALTHCHECK command must pass, and SIGTERM
 * must end it with 0. USER cannot be switched here; the test checks it is not root.
 *
 * The production install (`npm ci --omit=dev`, about 70 s here) is done once per package.json,
 * package-lock.json and vendor/ content, in .scratch/image-install-<hash>/, and the layout links
 * its node_modules: the install is the Dockerfile's own command on the Dockerfile's own files.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../bin/build.js";
import { freePort, until } from "./helpers/daemon.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SCRATCH = join(ROOT, ".scratch");

interface Instruction {
  op: string;
  args: string;
}

/** The Dockerfile's instructions by stage name, continuation lines joined, comments dropped. */
function stages(text: string): Map<string, Instruction[]> {
  const out = new Map<string, Instruction[]>();
  let current: Instruction[] = [];
  const lines = text.replace(/\\\n\s*/g, "").split("\n");
  for (const line of lines.map((l) => l.trim()).filter((l) => l && !l.startsWith("#"))) {
    const [, op = "", args = ""] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    if (op === "FROM") {
      current = [];
      out.set(/\bAS\s+(\S+)$/i.exec(args)?.[1] ?? args, current);
    }
    current.push({ op, args });
  }
  return out;
}

const dockerfile = stages(readFileSync(join(ROOT, "Dockerfile"), "utf8"));
const [buildStage, runtime] = [dockerfile.get("build") ?? [], dockerfile.get("runtime") ?? []];
const all = (op: string) => runtime.filter((i) => i.op === op);
const one = (op: string) => {
  const found = all(op);
  expect(found, op).toHaveLength(1);
  return found[0]!.args;
};
/** A RUN's command without BuildKit's flags (the cache mount). */
const command = (run: string) => run.replace(/^(--\S+\s+)+/, "");

/** A file or folder's content, for the install's cache key. */
function digest(path: string, hash = createHash("sha256")): ReturnType<typeof createHash> {
  if (statSync(path).isDirectory()) for (const name of readdirSync(path).sort()) digest(join(path, name), hash.update(name));
  else hash.update(readFileSync(path));
  return hash;
}

const layout = join(SCRATCH, `image-${process.pid}`);
let server: ChildProcess | undefined;
afterAll(() => {
  if (server?.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
  rmSync(layout, { recursive: true, force: true });
});

describe("the Dockerfile's runtime stage, replayed in a clean folder", () => {
  it("builds in a build stage, installs production dependencies only, runs as a user of its own with a health check", () => {
    expect(buildStage.some((i) => i.op === "RUN" && command(i.args) === "npm run build")).toBe(true);
    expect(all("RUN").map((i) => command(i.args))).toEqual(["npm ci --omit=dev --no-audit --no-fund"]);
    expect(one("USER")).not.toMatch(/^(root|0)$/);
    expect(one("HEALTHCHECK")).toMatch(/\/health'\)/);
    expect(JSON.parse(one("CMD"))).toEqual(["node", "dist/server/main.js"]);
    expect(all("COPY").map((i) => i.args)).toContain("data ./data");
  });

  it("starts as the image starts it and answers /ready 200; the HEALTHCHECK passes; SIGTERM ends it with 0", { timeout: 300_000 }, async () => {
    rmSync(layout, { recursive: true, force: true });
    mkdirSync(layout, { recursive: true });
    // The build stage's /app/dist: bin/build.js, which `npm run build` runs, into the scratch folder.
    const built = join(layout, ".build");
    await build(ROOT, relative(ROOT, join(built, "dist")));

    const installCopies: string[][] = [];
    let installed = false;
    for (const { op, args } of runtime) {
      if (op === "COPY") {
        const from = /^--from=(\S+)\s+/.exec(args)?.[1];
        const parts = args.replace(/^--from=\S+\s+/, "").split(/\s+/);
        const target = parts.pop()!;
        for (const source of parts) {
          const src = from ? join(built, source.replace(/^\/app\//, "")) : join(ROOT, source);
          const dest = target.endsWith("/") ? join(layout, target, source.split("/").pop()!) : join(layout, target);
          cpSync(src, dest, { recursive: true });
          if (!installed) installCopies.push([source, target]);
        }
      }
      if (op === "RUN") {
        // The install, once per content of what was copied before it, then linked in.
        const key = installCopies
          .reduce((hash, [source]) => digest(join(ROOT, source!), hash.update(source!)), createHash("sha256"))
          .digest("hex")
          .slice(0, 16);
        const cache = join(SCRATCH, `image-install-${key}`);
        if (!existsSync(join(cache, "node_modules"))) {
          rmSync(cache, { recursive: true, force: true });
          mkdirSync(cache, { recursive: true });
          for (const [source, target] of installCopies)
            cpSync(join(ROOT, source!), target!.endsWith("/") ? join(cache, target!, source!) : join(cache, target!), { recursive: true });
          execFileSync("sh", ["-c", command(args)], { cwd: cache, stdio: "pipe", timeout: 240_000, env: { ...process.env, NODE_ENV: "production" } });
        }
        symlinkSync(join(cache, "node_modules"), join(layout, "node_modules"), "dir");
        installed = true;
      }
    }
    expect(readdirSync(layout).sort()).toEqual([".build", "data", "dist", "docs", "node_modules", "package-lock.json", "package.json", "vendor"]);
    rmSync(built, { recursive: true, force: true });

    // The image's ENV, then this machine's loopback and a free port in place of 0.0.0.0:8787.
    const imageEnv = Object.fromEntries(all("ENV").flatMap((i) => i.args.split(/\s+/).map((pair) => pair.split("=") as [string, string])));
    const port = String(await freePort());
    const { TEST: _test, CI: _ci, VITEST: _vitest, ...inherited } = process.env;
    const env = { PATH: inherited.PATH ?? "", HOME: inherited.HOME ?? "", ...imageEnv, HOST: "127.0.0.1", PORT: port };
    const [cmd, ...cmdArgs] = JSON.parse(one("CMD")) as string[];
    server = spawn(cmd === "node" ? process.execPath : cmd!, cmdArgs, { cwd: layout, env, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    server.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    server.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => server!.once("exit", (code) => resolve(code)));

    const ready = await until(
      "/ready to answer 200",
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/ready`);
        return res.status === 200 ? ((await res.json()) as { data: { source: string; set: string; assets: number } }) : undefined;
      },
      30_000,
      () => log,
    );
    expect(ready.data).toMatchObject({ source: "dir", set: JSON.parse(readFileSync(join(ROOT, "data/current.json"), "utf8")).set });
    expect(ready.data.assets).toBeGreaterThan(0);
    // The web app built into dist/web is served.
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    // So are the guides, read from docs/ when asked.
    expect((await fetch(`http://127.0.0.1:${port}/docs/mcp.md`)).status).toBe(200);

    const [, healthArgs] = /^(?:--\S+\s+)*CMD\s+(\[.*\])$/.exec(one("HEALTHCHECK")) ?? [];
    const [healthCmd, ...healthRest] = JSON.parse(healthArgs ?? "[]") as string[];
    expect(healthCmd).toBe("node");
    execFileSync(process.execPath, healthRest, { env, timeout: 10_000 });

    server.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
