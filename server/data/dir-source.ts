/**
 * DATA_DIR followed through its `current.json`: when the pointer names another set, that set's
 * files are read (and checked against its `index.meta.json` when it has one; sets written before
 * the meta have none), and its index file opened in place when the meta lists one. The pipeline
 * writes a set whole before it switches the pointer (pipeline/publish.ts), so a named set is complete.
 */
import { existsSync, type FSWatcher, watch } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CURRENT_FILE, currentSet, INDEX_FILE, META_FILE, parseMeta, readSetFiles, SETS_DIR } from "../../core/publication/published.ts";
import type { Logger } from "../log.ts";
import type { DataChange, DataSource } from "./follow.ts";

/** `set`: the set in service when following starts (read before the data was loaded, so a later switch is seen). */
export function dirSource(dataDir: string, set: string | undefined): DataSource {
  let current = set;
  return {
    async poll(): Promise<DataChange | undefined> {
      const next = currentSet(dataDir);
      // No pointer: the loose layout, read once at start; the next pipeline run writes a pointer.
      if (next === undefined || next === current) return undefined;
      const dir = join(dataDir, SETS_DIR, next);
      const metaPath = join(dir, META_FILE);
      const meta = existsSync(metaPath) ? parseMeta(await readFile(metaPath)) : undefined;
      const files = await readSetFiles((name) => readFile(join(dir, name)), meta);
      return {
        files,
        meta,
        ...(meta?.indexFile ? { indexPath: join(dir, INDEX_FILE) } : {}),
        origin: { source: "dir", set: next },
        commit: () => {
          current = next;
        },
      };
    },
  };
}

/**
 * Calls `onChange` when something in DATA_DIR is renamed or written, `current.json` among them
 * (the pipeline renames a new pointer over it), so a new set is seen before the next poll. The
 * watcher keeps no process alive; where the platform cannot watch, polling alone still follows.
 */
export function watchDir(dataDir: string, onChange: () => void, log: Logger): FSWatcher | undefined {
  try {
    const watcher = watch(dataDir, { persistent: false }, (_event, name) => {
      if (name === null || name === CURRENT_FILE) onChange();
    });
    watcher.on("error", (err) => {
      log.warn({ event: "data_watch_failed", error: err.message }, `data: stopped watching ${dataDir} (polling goes on)`);
      watcher.close();
    });
    return watcher;
  } catch (err) {
    log.warn({ event: "data_watch_failed", error: (err as Error).message }, `data: cannot watch ${dataDir} (polling goes on)`);
    return undefined;
  }
}
