// @ts-check
/**
 * Whether dist/ (written by bin/build.js) still matches the sources: read by `npm start`
 * (bin/start.js) and the command line (bin/asset-search.js) before they run the built code.
 * Plain JavaScript, so the check costs no TypeScript loader: one stat per bundled file.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { STAMP } from "./build-files.js";

/**
 * Why the build in `outdir` is stale, or undefined when it is fresh: it is missing, an output is
 * gone, or an input is gone or was modified after the build started (mtime, so an edit during a
 * build counts too; a file copied in with an older mtime would not).
 * @param {string} root the package root
 * @param {string} [outdir] relative to root
 * @returns {string | undefined}
 */
export function staleness(root, outdir = "dist") {
  /** @type {import("./build-files.js").Stamp} */
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(root, outdir, STAMP), "utf8"));
  } catch {
    return `no build in ${outdir}/`;
  }
  for (const file of stamp.outputs) {
    if (!statSync(join(root, file), { throwIfNoEntry: false })) return `${file} is missing`;
  }
  for (const file of stamp.inputs) {
    const stat = statSync(join(root, file), { throwIfNoEntry: false });
    if (!stat) return `${file} is gone`;
    if (stat.mtimeMs > stamp.startedAt) return `${file} changed`;
  }
  return undefined;
}

/**
 * The built file of `entry` (an ENTRIES name of bin/build.js) when the build is fresh, else undefined.
 * @param {string} root
 * @param {string} entry
 * @param {string} [outdir]
 * @returns {string | undefined}
 */
export function freshBuilt(root, entry, outdir = "dist") {
  return staleness(root, outdir) === undefined ? join(root, outdir, `${entry}.js`) : undefined;
}

/**
 * Builds when stale (saying why on stderr), then returns the built file of `entry`.
 * esbuild is loaded only then, so a fresh start pays for the stat calls alone.
 * @param {string} root
 * @param {string} entry
 * @param {string} [outdir]
 * @returns {Promise<string>}
 */
export async function ensureBuilt(root, entry, outdir = "dist") {
  const why = staleness(root, outdir);
  if (why) {
    console.error(`building ${outdir}/: ${why}`);
    const { build } = await import("./build.js");
    await build(root, outdir);
  }
  return join(root, outdir, `${entry}.js`);
}
