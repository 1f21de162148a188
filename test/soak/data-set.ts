/**
 * The replicas' DATA_DIR: a copy of the repository's data/ that the soak publishes a new set into
 * mid-run, with the pipeline's own publishSet (set folder first, then current.json renamed over).
 */
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { currentSet, INDEX_FILE, PUBLISHED_FILES, SETS_DIR } from "../../core/publication/published.ts";
import { publishSet } from "../../pipeline/publish.ts";

const DATA = fileURLToPath(new URL("../../data", import.meta.url));

/** Copies data/ to `dir`; returns the set it serves. */
export function copyData(dir: string): string {
  cpSync(DATA, dir, { recursive: true });
  const set = currentSet(dir);
  if (!set) throw new Error(`${DATA} has no current.json: the soak needs a published set (npm run pipeline)`);
  return set;
}

/** Publishes the set in service again as a new set (same content, built `builtAt`); returns its name. */
export function publishAgain(dir: string, builtAt: string): string {
  const set = join(dir, SETS_DIR, currentSet(dir)!);
  const read = (name: string) => readFileSync(join(set, name));
  const contents = { catalog: read(PUBLISHED_FILES.catalog), history: read(PUBLISHED_FILES.history), index: read(PUBLISHED_FILES.index) };
  return publishSet(dir, { ...contents, indexFile: read(INDEX_FILE) }, builtAt);
}
