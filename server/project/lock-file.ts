/**
 * Reading and changing `assets.lock.json`. A change takes a sibling `.lock` file first (created
 * exclusively, so two runs never change the lock at once), reads the lock afresh under it, and
 * writes the result to a temporary file renamed over the lock: a reader sees the old lock or the
 * new one, never half of one, and two concurrent `get`s both land.
 */
import { randomBytes } from "node:crypto";
import { open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { AssetsLock, type LockedAsset } from "../../core/schemas/index.ts";
import { ApiError } from "../errors.ts";

/** A `.lock` older than this was left by a run that died: it is taken over. No change of the lock lasts near this long. */
const STALE_MS = 30_000;
/** How long a run waits for another one's change before giving up. */
const WAIT_MS = 20_000;

export const emptyLock = (): AssetsLock => ({ lockfileVersion: 1, assets: [] });

/** The lock at `path`; an empty one when there is none; a 400 naming the file when it is not a lock. */
export async function readLock(path: string): Promise<AssetsLock> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return emptyLock();
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiError(400, `${path} is not JSON: fix or remove it`);
  }
  const parsed = AssetsLock.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ApiError(400, `${path} is not an assets lock: ${issue.path.join(".")}: ${issue.message}`);
  }
  return parsed.data;
}

/** Writes `text` to `path` through a temporary file in the same folder, renamed over it. */
export async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temp, text, { flag: "wx" });
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

async function acquire(lockPath: string): Promise<() => Promise<void>> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lockPath, "wx");
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return () => rm(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const held = await stat(lockPath).catch(() => undefined);
    if (held && Date.now() - held.mtimeMs > STALE_MS) {
      await rm(lockPath, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new ApiError(409, `${lockPath} is held by another run; remove it if no other asset-search is running`);
    await sleep(20 + Math.random() * 60);
  }
}

/** Sets or replaces entries of the lock at `path`, under its `.lock`; entries stay ordered by id. */
export async function updateLock(path: string, change: (assets: Map<string, LockedAsset>) => void): Promise<AssetsLock> {
  const release = await acquire(`${path}.lock`);
  try {
    const current = await readLock(path);
    const assets = new Map(current.assets.map((a) => [a.id, a]));
    change(assets);
    const next: AssetsLock = { lockfileVersion: 1, assets: [...assets.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) };
    await writeAtomically(path, `${JSON.stringify(next, null, 2)}\n`);
    return next;
  } finally {
    await release();
  }
}
