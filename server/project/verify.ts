/**
 * `asset-search verify`: the files on disk against the lock. Every drift is named: a locked file
 * missing, a locked file whose bytes changed (sha256 and size), and a file in an asset's folder
 * the lock does not list (the generated LICENSE.txt aside).
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import type { AssetsLock, LockedAsset } from "../../core/schemas/index.ts";
import { CREDITS_FILENAME } from "../download/zip.ts";

export interface Drift {
  id: string;
  /** Relative to the lock file, with `/`. */
  path: string;
  kind: "missing" | "changed" | "extra";
  expected?: { sha256: string; sizeBytes: number };
  actual?: { sha256: string; sizeBytes: number };
}

/** The sha256 and size of a file, or undefined when there is no file at `path`. */
export async function hashFile(path: string): Promise<{ sha256: string; sizeBytes: number } | undefined> {
  const hash = createHash("sha256");
  let sizeBytes = 0;
  try {
    await pipeline(createReadStream(path), async (chunks: AsyncIterable<Buffer>) => {
      for await (const chunk of chunks) {
        hash.update(chunk);
        sizeBytes += chunk.length;
      }
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR") return undefined;
    throw err;
  }
  return { sha256: hash.digest("hex"), sizeBytes };
}

/** Every file under `dir`, relative to it with `/`; none when it does not exist. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => !e.isDirectory())
    .map((e) =>
      join(e.parentPath, e.name)
        .slice(dir.length + 1)
        .replaceAll("\\", "/"),
    );
}

/** The drifts of one locked asset, its files read under `root` (the lock file's folder). */
export async function assetDrifts(root: string, asset: LockedAsset): Promise<Drift[]> {
  const drifts: Drift[] = [];
  for (const file of asset.files) {
    const actual = await hashFile(join(root, file.path));
    const expected = { sha256: file.sha256, sizeBytes: file.sizeBytes };
    if (!actual) drifts.push({ id: asset.id, path: file.path, kind: "missing", expected });
    else if (actual.sha256 !== file.sha256) drifts.push({ id: asset.id, path: file.path, kind: "changed", expected, actual });
  }
  const locked = new Set([...asset.files.map((f) => f.path), `${asset.folder}/${CREDITS_FILENAME}`]);
  for (const rel of await listFiles(join(root, asset.folder))) {
    const path = `${asset.folder}/${rel}`;
    if (!locked.has(path)) drifts.push({ id: asset.id, path, kind: "extra" });
  }
  return drifts;
}

export async function verifyLock(root: string, lock: AssetsLock): Promise<Drift[]> {
  return (await Promise.all(lock.assets.map((a) => assetDrifts(root, a)))).flat();
}
