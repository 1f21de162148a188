// @ts-check
/** The names of the files a build writes beside its output, read by bin/build.js, bin/freshness.js and the server. */

/**
 * @typedef {{ startedAt: number, inputs: string[], outputs: string[] }} Stamp
 * The build's record in its output folder (STAMP): when it started, the files it read and the
 * files it wrote. Paths relative to the package root; inputs are esbuild's (every bundled source)
 * plus the files that shape the bundle without being in it.
 */
export const STAMP = "build.json";

/** The file in the web app's output folder (dist/web/) naming the script and stylesheet its pages link (server/web/bundle.ts). */
export const WEB_MANIFEST = "manifest.json";
