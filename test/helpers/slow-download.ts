/**
 * A replay folder (ASSET_SERVER_REPLAY) in which one zip download takes a while, for tests that
 * need a request in flight: every recording of test/fixtures, plus the five files of the
 * armchair's glTF download (test/fixtures/synthetic/gltf-armchair: the same URLs) answered after
 * `delayMs` each with SYNTHETIC inline bodies, `SYNTHETIC stand-in for <file name>\n`. The zip
 * fetches its entries one after another, so
 * the download takes about 5 × delayMs. The folder is temporary; `remove` deletes it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURES } from "./replay.ts";

/** The download whose files are slow. */
export const SLOW_DOWNLOAD_PATH = "/v1/assets/polyhaven:ArmChair_01/download";

export interface SlowReplay {
  dir: string;
  remove(): void;
}

export function slowDownloadReplay(delayMs: number): SlowReplay {
  const armchair = JSON.parse(readFileSync(join(FIXTURES, "synthetic", "gltf-armchair", "manifest.json"), "utf8")) as {
    entries: { url: string }[];
  };
  const dir = mkdtempSync(join(tmpdir(), "asset-search-slow-"));
  // Manifests load in name order and a later entry for a URL replaces an earlier one: "slow" wins.
  symlinkSync(FIXTURES, join(dir, "fixtures"), "dir");
  mkdirSync(join(dir, "slow"));
  const entries = armchair.entries.map(({ url }) => ({
    url,
    body: `SYNTHETIC stand-in for ${url.split("/").at(-1)}\n`,
    delayMs,
    note: "SYNTHETIC body, answered slowly",
  }));
  writeFileSync(join(dir, "slow", "manifest.json"), JSON.stringify({ note: "SYNTHETIC: slow armchair download for tests", entries }));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
