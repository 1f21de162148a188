import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The package's root: the nearest folder above `from` holding a package.json. A path computed
 * relative to import.meta.url moves with the code: from core/ the root is one level up, from the
 * bundle (dist/server/main.js, written by bin/build.js) two. Walking up finds it from both.
 */
export function packageRoot(from: string | URL = import.meta.url): string {
  const start = dirname(fileURLToPath(from));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}

const ROOT = packageRoot();

/** A file or folder of the package (dist/web, data), wherever the running code is. */
export function packagePath(...segments: string[]): string {
  return join(ROOT, ...segments);
}
