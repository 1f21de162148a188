#!/usr/bin/env node
// @ts-check
/**
 * `npm run build`: bundles the server and the command line to dist/ (ESM for Node 20, with source
 * maps), and the web app (web/) to dist/web/ for browsers. The server's dependencies stay external,
 * imported from node_modules as under tsx, so their own files (and anything they read beside them)
 * are where they expect; the web app's are bundled, since a browser has no node_modules. Files the
 * code reads at run time (dist/web/, data/) are found from the package root (core/package-path.ts).
 */
import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { STAMP, WEB_MANIFEST } from "./build-files.js";

/** Output name (under the output folder, without .js) → TypeScript entry. */
export const ENTRIES = { "server/main": "server/main.ts", "cli/main": "cli/main.ts" };

/** Files that shape the bundle without being bundled: a change to them also makes it stale. */
const SHAPING = ["package.json", "tsconfig.json", "web/tsconfig.json", "bin/build.js"];

/** The web app's entry. */
const WEB_ENTRY = "web/main.tsx";

/**
 * The CSP hashes of the `<style>` elements the bundle's scripts write into the page (the 3D
 * viewer's component template carries one), so the pages' policy can allow exactly those and no
 * other inline style.
 * @param {string[]} files the build's outputs
 */
function inlineStyleHashes(files) {
  const hashes = new Set();
  for (const file of files.filter((f) => f.endsWith(".js"))) {
    for (const [, css = ""] of readFileSync(file, "utf8").matchAll(/<style>([\s\S]*?)<\/style>/g)) {
      hashes.add(`sha256-${createHash("sha256").update(css).digest("base64")}`);
    }
  }
  return [...hashes].sort();
}

/**
 * The web app for browsers: every file named by its content hash, so the server can let caches
 * keep them for a year; modules imported on first use (the 3D viewer) are chunks of their own,
 * fetched only when an asset view needs them.
 * @param {string} root
 * @param {string} outdir absolute
 */
async function buildWeb(root, outdir) {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [WEB_ENTRY],
    outdir,
    bundle: true,
    format: "esm",
    splitting: true,
    platform: "browser",
    target: ["chrome111", "edge111", "firefox114", "safari16.4"],
    jsx: "automatic",
    jsxImportSource: "preact",
    entryNames: "[name]-[hash]",
    chunkNames: "chunks/[name]-[hash]",
    assetNames: "assets/[name]-[hash]",
    minify: true,
    sourcemap: "linked",
    metafile: true,
    logLevel: "warning",
  });
  const outputs = Object.entries(result.metafile.outputs);
  const [script, entry] = outputs.find(([, output]) => output.entryPoint === WEB_ENTRY) ?? [];
  if (!script || !entry?.cssBundle) throw new Error(`${WEB_ENTRY} built without its script or stylesheet`);
  const name = (/** @type {string} */ file) => file.slice(file.lastIndexOf("/web/") + "/web/".length);
  const manifest = { script: name(script), style: name(entry.cssBundle), styleHashes: inlineStyleHashes(outputs.map(([file]) => join(root, file))) };
  writeFileSync(join(outdir, WEB_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return Object.keys(result.metafile.inputs).filter((file) => !file.startsWith("node_modules/"));
}

/**
 * Builds into a temporary sibling folder, then swaps it in for `outdir`, so a reader never sees
 * half a build (bin/freshness.js finds no stamp while the swap runs and falls back).
 * @param {string} root the package root
 * @param {string} [outdir] relative to root
 */
export async function build(root, outdir = "dist") {
  const startedAt = Date.now();
  const target = join(root, outdir);
  const temporary = `${target}.tmp-${process.pid}`;
  rmSync(temporary, { recursive: true, force: true });
  try {
    await buildInto(root, outdir, temporary, startedAt);
  } catch (err) {
    // A failed build leaves nothing behind: the next one starts clean and dist/ stays as it was.
    rmSync(temporary, { recursive: true, force: true });
    throw err;
  }
  const old = `${target}.old-${process.pid}`;
  rmSync(old, { recursive: true, force: true });
  try {
    renameSync(target, old);
  } catch {
    // No earlier build, or another process is swapping its own in.
  }
  try {
    renameSync(temporary, target);
  } catch {
    // Another process's build landed first; it was built from the same sources.
    rmSync(temporary, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
}

/**
 * The server, the command line and the web app into `temporary`, the stamp written last.
 * @param {string} root
 * @param {string} outdir
 * @param {string} temporary
 * @param {number} startedAt
 */
async function buildInto(root, outdir, temporary, startedAt) {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: Object.entries(ENTRIES).map(([out, input]) => ({ in: input, out })),
    outdir: temporary,
    bundle: true,
    format: "esm",
    // Modules imported on first use (the MCP tools) stay separate chunks, loaded only then.
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: true,
    metafile: true,
    logLevel: "warning",
  });
  const webInputs = await buildWeb(root, join(temporary, "web"));
  /** @type {import("./build-files.js").Stamp} */
  const stamp = {
    startedAt,
    // Bundled dependencies are not listed: package.json stands for them, as for the server's.
    inputs: [...new Set([...SHAPING, ...Object.keys(result.metafile.inputs), ...webInputs])],
    outputs: [...Object.keys(ENTRIES).map((name) => `${outdir}/${name}.js`), `${outdir}/web/${WEB_MANIFEST}`],
  };
  writeFileSync(join(temporary, STAMP), `${JSON.stringify(stamp, null, 2)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const started = performance.now();
  await build(root);
  console.error(`built dist/ in ${Math.round(performance.now() - started)} ms`);
}
