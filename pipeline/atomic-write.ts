import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Writes a file and flushes it to the disk, so a power loss cannot leave it empty once this returns. */
export function writeDurable(path: string, content: string | Buffer): void {
  const fd = openSync(path, "w");
  try {
    writeFileSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Flushes a directory's entries (files created, renamed or removed in it) to the disk. */
export function fsyncDir(dir: string): void {
  // Windows cannot open a directory for fsync; NTFS journals its renames itself.
  if (process.platform === "win32") return;
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The temporary name `writeAtomic` writes `path` under before renaming it. */
export const isAtomicTemp = (name: string, base: string) => name.startsWith(`${base}.`) && name.endsWith(".tmp");

/**
 * Writes a file so readers see the old or the new content, never half of one, even after a crash
 * or a power loss: temp file, fsync, rename, fsync of the folder (which makes the rename last).
 */
export function writeAtomic(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeDurable(temp, content);
  renameSync(temp, path);
  fsyncDir(dirname(path));
}
