import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

/**
 * A maker of scratch folders named `<prefix>…` under the system's temp folder, each removed by
 * `cleanup` (afterEach by default; afterAll where a suite shares its folders across tests).
 * Call it at the top of a test file, where vitest registers the hook.
 */
export function scratchDirs(prefix: string, cleanup: (fn: () => void) => void = afterEach): () => string {
  const dirs: string[] = [];
  cleanup(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}
