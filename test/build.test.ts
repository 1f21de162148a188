/**
 * The build step (bin/build.js, bin/freshness.js, bin/start.js, bin/asset-search.js): the bundle
 * runs — the server answers on loopback and finds its page and data from the output folder — and
 * the freshness check rebuilds after a source change and not otherwise, in a scratch package.
 * The repository's own dist/ is never touched: tests build into .scratch/ (git-ignored), which
 * sits inside the package so the bundle finds node_modules and the package root as dist/ would.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { build } from "../bin/build.js";
import { STAMP, type Stamp } from "../bin/build-files.js";
import { ensureBuilt, freshBuilt, staleness } from "../bin/freshness.js";
import { packagePath, packageRoot } from "../core/package-path.ts";
import { freePort, until } from "./helpers/daemon.ts";
import { scratchDirs } from "./helpers/scratch.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = `.scratch/build-test-${process.pid}`;
const run = promisify(execFile);
const ENV = { ...process.env, ASSET_SERVER_REPLAY: "test/fixtures", DATA_DIR: "data", RATE_LIMIT_PER_MINUTE: "0" };

describe("the package root", () => {
  it("is found from the sources and from the bundle's place alike", () => {
    expect(packageRoot(new URL("../core/package-path.ts", import.meta.url))).toBe(packageRoot(new URL("../dist/server/main.js", import.meta.url)));
    expect(JSON.parse(readFileSync(packagePath("dist/web/manifest.json"), "utf8")).script).toMatch(/^main-\w+\.js$/);
  });
});

describe("the built output", () => {
  let server: ChildProcess | undefined;
  beforeAll(() => build(ROOT, OUT), 60_000);
  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    rmSync(join(ROOT, OUT), { recursive: true, force: true });
  });

  it("holds both entries with source maps and a stamp that makes it fresh", () => {
    for (const entry of ["server/main", "cli/main"]) {
      expect(readFileSync(join(ROOT, OUT, `${entry}.js`), "utf8")).toMatch(/sourceMappingURL=main\.js\.map/);
    }
    // The code sits in shared chunks (the build splits what is imported on first use): their maps name the sources.
    const maps = readdirSync(join(ROOT, OUT, "chunks")).filter((f) => f.endsWith(".js.map"));
    const sources = new Set(maps.flatMap((f) => JSON.parse(readFileSync(join(ROOT, OUT, "chunks", f), "utf8")).sources as string[]));
    expect([...sources].some((s) => s.endsWith("server/mcp/tools.ts"))).toBe(true);
    expect(sources.size).toBeGreaterThan(10);
    const stamp = JSON.parse(readFileSync(join(ROOT, OUT, STAMP), "utf8")) as Stamp;
    expect(stamp.inputs).toContain("server/main.ts");
    expect(stamp.inputs.some((file) => file.includes("node_modules"))).toBe(false); // dependencies stay external
    expect(staleness(ROOT, OUT)).toBeUndefined();
  });

  it("serves /health, /v1/search and the page on a loopback port", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [`${OUT}/server/main.js`], { cwd: ROOT, env: { ...ENV, HOST: "127.0.0.1", PORT: String(port) }, stdio: "pipe" });
    server = child;
    let log = "";
    child.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    const health = await until(
      "/health",
      async () => ((await fetch(`${base}/health`)).ok ? true : undefined),
      20_000,
      () => log,
    );
    expect(health).toBe(true);
    const search = (await (await fetch(`${base}/v1/search?q=arm+chair&limit=3`)).json()) as { results: { id: string }[] };
    expect(search.results[0]?.id).toBe("polyhaven:ArmChair_01");
    expect(await (await fetch(`${base}/`)).text()).toMatch(/^<!doctype html>/i);
  });

  it("runs the command line", async () => {
    const { stdout } = await run(process.execPath, [`${OUT}/cli/main.js`, "search", "arm", "chair", "-n", "1", "--json"], { cwd: ROOT, env: ENV });
    expect(JSON.parse(stdout).results[0].id).toBe("polyhaven:ArmChair_01");
  });
});

describe("the freshness check, in a scratch package", () => {
  const scratch = scratchDirs("asset-search-build-");

  /** A package with the real launchers, a two-file server, a CLI that says which file ran and a web entry with its stylesheet. */
  function scratchPackage(): string {
    const root = scratch();
    for (const dir of ["bin", "server", "cli", "web"]) mkdirSync(join(root, dir));
    cpSync(join(ROOT, "bin"), join(root, "bin"), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"));
    writeFileSync(join(root, "package.json"), '{ "type": "module" }\n');
    writeFileSync(join(root, "tsconfig.json"), "{}\n");
    writeFileSync(join(root, "server/word.ts"), 'export const word: string = "first";\n');
    writeFileSync(join(root, "server/main.ts"), 'import { word } from "./word.ts";\nconsole.log(word);\n');
    writeFileSync(join(root, "cli/main.ts"), "console.log(import.meta.url);\n");
    writeFileSync(join(root, "web/tsconfig.json"), "{}\n");
    writeFileSync(join(root, "web/main.tsx"), 'import "./page.css";\n');
    writeFileSync(join(root, "web/page.css"), "body { margin: 0; }\n");
    return root;
  }
  const stampOf = (root: string) => JSON.parse(readFileSync(join(root, "dist", STAMP), "utf8")) as Stamp;
  /** Gives a file an mtime after the build's start, as an edit would. */
  const edit = (root: string, file: string, text: string) => {
    writeFileSync(join(root, file), text);
    const after = new Date(stampOf(root).startedAt + 1);
    utimesSync(join(root, file), after, after);
  };

  it("leaves nothing behind when a build fails, and the build before it in place", async () => {
    const root = scratchPackage();
    await build(root);
    const before = stampOf(root);
    // The web app fails after the server's bundle is written into the temporary folder.
    writeFileSync(join(root, "web/main.tsx"), 'import "./gone.css";\n');
    await expect(build(root)).rejects.toThrow(/gone\.css/);
    expect(readdirSync(root).filter((name) => name.startsWith("dist"))).toEqual(["dist"]);
    expect(stampOf(root)).toEqual(before);
  });

  it("builds when dist/ is missing, not when nothing changed, and again after a source change", async () => {
    const root = scratchPackage();
    const said = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(staleness(root)).toBe("no build in dist/");
      const entry = await ensureBuilt(root, "server/main");
      expect(entry).toBe(join(root, "dist/server/main.js"));
      const first = stampOf(root);
      expect(first.inputs).toEqual(expect.arrayContaining(["server/main.ts", "server/word.ts", "cli/main.ts", "bin/build.js"]));

      writeFileSync(join(root, "README.md"), "not bundled\n");
      await ensureBuilt(root, "server/main");
      expect(stampOf(root).startedAt).toBe(first.startedAt); // nothing bundled changed: no rebuild
      expect(said).toHaveBeenCalledTimes(1);

      edit(root, "server/word.ts", 'export const word: string = "second";\n');
      expect(staleness(root)).toBe("server/word.ts changed");
      await ensureBuilt(root, "server/main");
      expect(said).toHaveBeenLastCalledWith("building dist/: server/word.ts changed");
      expect((await run(process.execPath, [entry])).stdout).toBe("second\n");
      expect(staleness(root)).toBeUndefined();

      rmSync(join(root, "dist/cli/main.js"));
      expect(staleness(root)).toBe("dist/cli/main.js is missing");
    } finally {
      said.mockRestore();
    }
  });

  it("lets the command line launcher run the built file when fresh, else the TypeScript through tsx", async () => {
    const root = scratchPackage();
    const launch = async () => (await run(process.execPath, [join(root, "bin/asset-search.js")])).stdout.trim();
    expect(await launch()).toMatch(/\/cli\/main\.ts$/); // no build yet
    await build(root);
    expect(freshBuilt(root, "cli/main")).toBe(join(root, "dist/cli/main.js"));
    expect(await launch()).toMatch(/\/dist\/cli\/main\.js$/);
    edit(root, "cli/main.ts", "console.log(import.meta.url); // edited\n");
    expect(freshBuilt(root, "cli/main")).toBeUndefined();
    expect(await launch()).toMatch(/\/cli\/main\.ts$/);
  });
});
