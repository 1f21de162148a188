/**
 * The soak's fault schedule, written as a replay folder per replica: the recordings of
 * test/fixtures (linked, not copied) and, loaded after them, one overlay manifest whose entries
 * with `times` answer first (core/http/replay.ts). Replay counts what each replica asks, so
 * "after N requests" is per replica. The replicas cache no upstream answer (replica.ts) and the
 * URLs of the dead and the hung source are asked by the paced requests only (mix.ts), once a
 * second on each replica: N asks are N seconds, on both at once.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { ReplayEntryInput } from "../../core/http/replay.ts";
import { FIXTURES } from "../helpers/replay.ts";

/** The live source that starts failing (500 on every recorded URL: its searches, and its model's details). */
export const DEAD = { source: "sketchfab", query: "tree", asset: "sketchfab:d9e174d623124d2aa23122683018f6e6" } as const;
/** The live source whose search API starts hanging (its details keep answering); `search` marks its recorded search URLs. */
export const HUNG = { source: "3dtextures", query: "wood", search: "/wp-json/wp/v2/posts?search=wood&" } as const;
/** The file cut mid-body for a few downloads: Fontsource's abel, inside the kit zip. */
export const CUT_FILE = { source: "fontsource", url: "https://cdn.jsdelivr.net/npm/@fontsource/abel/files/abel-latin-400-normal.woff" } as const;

export interface FaultPlan {
  /** Asks of each DEAD URL answered from the recording before the 500s. */
  deadAfter: number;
  /** Asks of each HUNG search URL answered before it hangs. */
  hungAfter: number;
  /** Downloads of CUT_FILE served whole before `cuts` are cut, after which it is whole again. */
  cutAfter: number;
  cuts: number;
}

interface Recorded {
  url: string;
  file?: string;
  headers?: Record<string, string>;
}

/** The recorded entries of one fixture folder's manifest whose URL `keep` accepts. */
function recorded(folder: string, keep: (url: string) => boolean): (Recorded & { path: string })[] {
  const dir = join(FIXTURES, folder);
  const { entries } = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { entries: Recorded[] };
  return entries.filter((e) => keep(e.url)).map((e) => ({ ...e, path: join(dir, e.file!) }));
}

/** The overlay's entries: each recorded body for its first asks, then the fault. */
export function faultEntries(plan: FaultPlan, overlayDir: string): ReplayEntryInput[] {
  const body = (e: Recorded & { path: string }) => ({ url: e.url, file: relative(overlayDir, e.path), headers: e.headers ?? {} });
  const dead = recorded(DEAD.source, () => true).flatMap((e) => [
    { ...body(e), times: plan.deadAfter, note: "recorded answer until the source dies" },
    { url: e.url, status: 500, body: "soak: scripted upstream failure", note: "SYNTHETIC: the dead source's 500, for ever after" },
  ]);
  const hung = recorded(HUNG.source, (url) => url.includes(HUNG.search)).flatMap((e) => [
    { ...body(e), times: plan.hungAfter, note: "recorded answer until the search API hangs" },
    { url: e.url, fault: "hang" as const, note: "SYNTHETIC: never answers, for ever after" },
  ]);
  const cut = recorded("synthetic/project-files", (url) => url === CUT_FILE.url).flatMap((e) => [
    { ...body(e), times: plan.cutAfter, note: "whole downloads first" },
    {
      ...body(e),
      fault: "truncate" as const,
      times: plan.cuts,
      note: "SYNTHETIC: half the body, then the connection drops; the recording answers again after",
    },
  ]);
  return [...dead, ...hung, ...cut];
}

/** A replay folder under `dir`: the recordings, then the overlay (folders load in name order, "fixtures" before "soak-faults"). */
export function replayFolder(dir: string, plan: FaultPlan): string {
  mkdirSync(dir, { recursive: true });
  symlinkSync(FIXTURES, join(dir, "fixtures"), "dir");
  const overlay = join(dir, "soak-faults");
  mkdirSync(overlay);
  const manifest = { note: "The soak's fault schedule (test/soak/faults.ts), written for one run.", entries: faultEntries(plan, overlay) };
  writeFileSync(join(overlay, "manifest.json"), JSON.stringify(manifest, null, 1));
  return dir;
}
