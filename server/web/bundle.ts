/**
 * The web app as bin/build.js leaves it in dist/web/: the manifest naming the entry's script and
 * stylesheet, and every file under its content-hashed name, served from memory. A file is read and
 * compressed on its first request only, once per process, so an app that never serves the page
 * (most tests, the CLI) pays nothing, and the 3D viewer's large chunk costs nothing until an asset
 * view asks for it.
 */
import { readFileSync, statSync } from "node:fs";
import { extname, join, normalize, sep } from "node:path";
import { WEB_MANIFEST } from "../../bin/build-files.js";
import { packagePath } from "../../core/package-path.ts";
import { type StaticFile, staticFile } from "../static/file.ts";

/** The build's folder; `npm start` and the tests' setup build it when it is missing or stale. */
export const WEB_DIR = packagePath("dist", "web");

/** What the page shell links (paths under /static/), and the hashes of the inline styles the bundle writes (for the pages' policy). */
export interface WebManifest {
  script: string;
  style: string;
  styleHashes: string[];
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
};

export function readManifest(dir = WEB_DIR): WebManifest {
  try {
    return JSON.parse(readFileSync(join(dir, WEB_MANIFEST), "utf8")) as WebManifest;
  } catch (err) {
    throw new Error(`the web app is not built in ${dir} (${(err as Error).message}): run npm run build`);
  }
}

const loaded = new Map<string, Promise<StaticFile | undefined>>();

/**
 * The built file at `path` (relative to the build folder, as after /static/), or undefined when
 * there is none; the manifest and any path that climbs out of the folder are none.
 */
export function bundleFile(path: string, dir = WEB_DIR): Promise<StaticFile | undefined> {
  const full = normalize(join(dir, path));
  if (!full.startsWith(dir + sep) || full === join(dir, WEB_MANIFEST)) return Promise.resolve(undefined);
  let file = loaded.get(full);
  if (!file) {
    file = read(full);
    loaded.set(full, file);
  }
  return file;
}

async function read(full: string): Promise<StaticFile | undefined> {
  const type = TYPES[extname(full)];
  if (!type || !statSync(full, { throwIfNoEntry: false })?.isFile()) return undefined;
  return staticFile(readFileSync(full), { type, compress: true });
}
