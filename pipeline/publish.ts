import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CURRENT_FILE, currentSet, PUBLISHED_FILES, SETS_DIR } from "../core/published.ts";
import { fsyncDir, isAtomicTemp, writeAtomic, writeDurable } from "./atomic-write.ts";

/** The content of each file of a set, by the keys of PUBLISHED_FILES. */
export type SetContents = Record<keyof typeof PUBLISHED_FILES, string | Buffer>;

const FILES = Object.entries(PUBLISHED_FILES) as [keyof typeof PUBLISHED_FILES, string][];
const LOOSE_FILES: readonly string[] = Object.values(PUBLISHED_FILES);

/** `20261122T040000Z-<8 hex>`: sorts by build time, and differs whenever the content does. */
export function setName(contents: SetContents, builtAt: string): string {
  const hash = createHash("sha256");
  for (const [key, file] of FILES) hash.update(`${file} ${Buffer.byteLength(contents[key])}\n`).update(contents[key]);
  const time = new Date(builtAt)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${time}-${hash.digest("hex").slice(0, 8)}`;
}

/** Writes the set under a temporary name and renames it whole, so `sets/<name>` is always complete. */
function writeSet(setsDir: string, name: string, contents: SetContents): void {
  // The same name means the same build time and content: that set is already complete on disk.
  if (existsSync(join(setsDir, name))) return;
  // A `*.tmp` name (git-ignored): what a killed run leaves is never committed, and the next run prunes it.
  const temp = join(setsDir, `${name}.${process.pid}.tmp`);
  mkdirSync(temp);
  for (const [key, file] of FILES) writeDurable(join(temp, file), contents[key]);
  fsyncDir(temp);
  renameSync(temp, join(setsDir, name));
  fsyncDir(setsDir);
}

/** The set the pointer names now; an unreadable pointer names none (it is about to be replaced). */
function liveSet(dataDir: string): string | undefined {
  try {
    return currentSet(dataDir);
  } catch {
    return undefined;
  }
}

const isLeftover = (entry: string) => LOOSE_FILES.includes(entry) || [CURRENT_FILE, ...LOOSE_FILES].some((base) => isAtomicTemp(entry, base));

/** Removes the sets not kept, the leftovers of interrupted runs and the loose files of the layout before sets. */
function prune(dataDir: string, keep: readonly string[]): void {
  const setsDir = join(dataDir, SETS_DIR);
  for (const entry of readdirSync(setsDir)) {
    if (!keep.includes(entry)) rmSync(join(setsDir, entry), { recursive: true, force: true });
  }
  for (const entry of readdirSync(dataDir)) if (isLeftover(entry)) rmSync(join(dataDir, entry), { force: true });
}

/**
 * Publishes a set: its folder complete and on disk first, then `current.json` switched to it (the
 * one step readers see), then older sets pruned. The set live until now stays one more run, for a
 * server that is still reading it. Returns the new set's name.
 */
export function publishSet(dataDir: string, contents: SetContents, builtAt: string): string {
  const previous = liveSet(dataDir);
  const setsDir = join(dataDir, SETS_DIR);
  // A new sets/ must be on disk before the pointer names a folder in it.
  if (mkdirSync(setsDir, { recursive: true }) !== undefined) fsyncDir(dataDir);
  const name = setName(contents, builtAt);
  writeSet(setsDir, name, contents);
  writeAtomic(join(dataDir, CURRENT_FILE), `${JSON.stringify({ set: name })}\n`);
  prune(dataDir, previous ? [name, previous] : [name]);
  return name;
}
