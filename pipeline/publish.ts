import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { assetCounts, buildMeta, metaJson, setFileInfos } from "../core/publication/meta.ts";
import { CURRENT_FILE, currentSet, INDEX_FILE, type IndexMeta, META_FILE, PUBLISHED_FILES, SETS_DIR } from "../core/publication/published.ts";
import { fsyncDir, isAtomicTemp, writeAtomic, writeDurable } from "./atomic-write.ts";

/** The content of each file of a set, by the keys of PUBLISHED_FILES, and the index file (INDEX_FILE) when there is one. */
export type SetContents = Record<keyof typeof PUBLISHED_FILES, string | Buffer> & { indexFile?: Buffer };

/** A set's files by name: the three of PUBLISHED_FILES, the index file, then the meta that lists them. */
type SetFiles = [name: string, content: string | Buffer][];

/** The files of the layout before sets, a set's meta among them when a set was copied out as loose files. */
const LOOSE_FILES: readonly string[] = [...Object.values(PUBLISHED_FILES), INDEX_FILE, META_FILE];

function setFiles(contents: SetContents, builtAt: string, counts: IndexMeta["counts"]): SetFiles {
  const files: SetFiles = Object.entries(PUBLISHED_FILES).map(([key, name]) => [name, contents[key as keyof typeof PUBLISHED_FILES]]);
  if (contents.indexFile) files.push([INDEX_FILE, contents.indexFile]);
  return [...files, [META_FILE, metaJson(buildMeta(setFileInfos(contents), builtAt, counts))]];
}

/**
 * The records of an `index.json.gz` as core/index/search-index.ts `serialize` writes it, read without
 * building the index: only their sources are counted, and it keeps publishing short.
 */
const records = (gz: string | Buffer): { provider: string }[] => (JSON.parse(gunzipSync(gz).toString("utf8")) as { assets: { provider: string }[] }).assets;

/** `20261122T040000Z-<8 hex>`: sorts by build time, and differs whenever the content does. */
function setName(files: SetFiles, builtAt: string): string {
  const hash = createHash("sha256");
  for (const [file, content] of files) hash.update(`${file} ${Buffer.byteLength(content)}\n`).update(content);
  const time = new Date(builtAt)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${time}-${hash.digest("hex").slice(0, 8)}`;
}

/** Writes the set under a temporary name and renames it whole, so `sets/<name>` is always complete. */
function writeSet(setsDir: string, name: string, files: SetFiles): void {
  // The same name means the same build time and content: that set is already complete on disk.
  if (existsSync(join(setsDir, name))) return;
  // A `*.tmp` name (git-ignored): what a killed run leaves is never committed, and the next run prunes it.
  const temp = join(setsDir, `${name}.${process.pid}.tmp`);
  mkdirSync(temp);
  for (const [file, content] of files) writeDurable(join(temp, file), content);
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
 * Publishes a set with its meta (META_FILE): its folder complete and on disk first, then
 * `current.json` switched to it (the one step readers see), then older sets pruned. The set live
 * until now stays one more run, for a server that is still reading it. `counts` are the meta's
 * (read from the index when not given). Returns the new set's name.
 */
export function publishSet(dataDir: string, contents: SetContents, builtAt: string, counts?: IndexMeta["counts"]): string {
  const previous = liveSet(dataDir);
  const setsDir = join(dataDir, SETS_DIR);
  // A new sets/ must be on disk before the pointer names a folder in it.
  if (mkdirSync(setsDir, { recursive: true }) !== undefined) fsyncDir(dataDir);
  const files = setFiles(contents, builtAt, counts ?? assetCounts(records(contents.index)));
  const name = setName(files, builtAt);
  writeSet(setsDir, name, files);
  writeAtomic(join(dataDir, CURRENT_FILE), `${JSON.stringify({ set: name })}\n`);
  prune(dataDir, previous ? [name, previous] : [name]);
  return name;
}
