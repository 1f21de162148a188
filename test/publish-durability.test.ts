import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runPipeline } from "../pipeline/run.ts";
import { polyhaven } from "../sources/polyhaven.ts";
import { replayRuntime } from "./helpers/replay.ts";

// Every fsync (by the path its descriptor was opened on), rename and removal, in order.
const ops = vi.hoisted(() => [] as { op: string; paths: string[] }[]);
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const opened = new Map<number, string>();
  return {
    ...fs,
    openSync: (...args: Parameters<typeof fs.openSync>) => {
      const fd = fs.openSync(...args);
      opened.set(fd, String(args[0]));
      return fd;
    },
    fsyncSync: (fd: number) => {
      ops.push({ op: "fsync", paths: [opened.get(fd)!] });
      fs.fsyncSync(fd);
    },
    renameSync: (from: string, to: string) => {
      ops.push({ op: "rename", paths: [from, to] });
      fs.renameSync(from, to);
    },
    rmSync: (...args: Parameters<typeof fs.rmSync>) => {
      ops.push({ op: "rm", paths: [String(args[0])] });
      fs.rmSync(...args);
    },
  };
});

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** One pipeline run's file operations, paths relative to DATA_DIR, the pid in temporary names as `*`. */
async function recordRun(dataDir: string, now: string) {
  ops.length = 0;
  const { set } = await runPipeline({ runtime: replayRuntime({ now: new Date(now) }), sources: [polyhaven], dataDir });
  const name = (path: string) => (relative(dataDir, path) || ".").replace(/(\.\d+)+\.tmp\b/, ".*.tmp");
  return { set, ops: ops.map(({ op, paths }) => [op, ...paths.map(name)].join(" ")) };
}

describe("publishing a set", () => {
  it("flushes the set's files and folder before current.json names it, and the pointer before pruning", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "asset-search-durable-"));
    dirs.push(dataDir);
    const first = await recordRun(dataDir, "2026-11-21T04:00:00Z");
    expect(first.ops).toEqual([
      "fsync .", // the new sets/ folder
      `fsync sets/${first.set}.*.tmp/catalog.json`,
      `fsync sets/${first.set}.*.tmp/catalog-history.json`,
      `fsync sets/${first.set}.*.tmp/index.json.gz`,
      `fsync sets/${first.set}.*.tmp/index.db`,
      `fsync sets/${first.set}.*.tmp/index.meta.json`,
      `fsync sets/${first.set}.*.tmp`,
      `rename sets/${first.set}.*.tmp sets/${first.set}`,
      "fsync sets",
      "fsync current.json.*.tmp",
      "rename current.json.*.tmp current.json",
      "fsync .",
    ]);

    await recordRun(dataDir, "2026-11-22T04:00:00Z");
    writeFileSync(join(dataDir, "catalog.json"), "{}");
    const third = await recordRun(dataDir, "2026-11-23T04:00:00Z");
    expect(third.ops).toEqual([
      `fsync sets/${third.set}.*.tmp/catalog.json`,
      `fsync sets/${third.set}.*.tmp/catalog-history.json`,
      `fsync sets/${third.set}.*.tmp/index.json.gz`,
      `fsync sets/${third.set}.*.tmp/index.db`,
      `fsync sets/${third.set}.*.tmp/index.meta.json`,
      `fsync sets/${third.set}.*.tmp`,
      `rename sets/${third.set}.*.tmp sets/${third.set}`,
      "fsync sets",
      "fsync current.json.*.tmp",
      "rename current.json.*.tmp current.json",
      "fsync .",
      `rm sets/${first.set}`,
      "rm catalog.json",
    ]);
  });
});
