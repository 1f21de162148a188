/**
 * The soak's requests, from the recordings. The clients' fixed mix: searches that reach the index
 * and live sources, asset details, file lists, one asset's zip and a kit zip holding the file made
 * to be cut. The paced requests, sent to each replica at once every second (load.ts): the ones
 * that ask the sources made to fail and to hang (tree: Sketchfab; wood: 3DTextures; Sketchfab's
 * model), so that each replica asks them as often as the other and the faults, counted in asks
 * (faults.ts), come on both at the same time.
 */
import { CUT_FILE, DEAD, HUNG } from "./faults.ts";

export type Kind = "search" | "details" | "files" | "zip" | "kit";
export const KINDS: readonly Kind[] = ["search", "details", "files", "zip", "kit"];

export interface Planned {
  kind: Kind;
  path: string;
  /** The source whose asset this is (details, files). */
  provider?: string;
  /** The search's query. */
  query?: string;
}

const QUERIES = ["rock", "sunset", "garage", "low poly tree", "brick"];
const ASSETS = [
  "polyhaven:ArmChair_01",
  "3dassets:bellroot-fen-floodward-marches-ceremonial-bellroot-tre-aec588ae",
  "ambientcg:3DApple002",
  "fontsource:abel",
  "polyfork:geyser-cone-2b5033",
];
export const ZIP_PATH = "/v1/assets/polyhaven:ArmChair_01/download";
/** The kit's abel file is CUT_FILE. */
export const KIT_PATH = `/v1/download?ids=polyhaven:ArmChair_01;format=gltf,${CUT_FILE.source}:abel;format=woff`;

/** One cycle: an odd length, so that alternating replicas sends each slot to both in turn. */
const CYCLE: readonly Kind[] = ["search", "details", "search", "files", "zip", "search", "details", "kit", "search", "files", "search"];

/** The n-th request of the mix; each kind walks its own list. */
export function planned(n: number): Planned {
  const slot = n % CYCLE.length;
  const kind = CYCLE[slot]!;
  const ofKind = (kinds: readonly Kind[]) => kinds.filter((k) => k === kind).length;
  const nth = Math.floor(n / CYCLE.length) * ofKind(CYCLE) + ofKind(CYCLE.slice(0, slot));
  const asset = ASSETS[nth % ASSETS.length]!;
  const provider = asset.slice(0, asset.indexOf(":"));
  switch (kind) {
    case "search":
      return searchFor(QUERIES[nth % QUERIES.length]!);
    case "details":
      return details(asset);
    case "files":
      return { kind, path: `/v1/assets/${encodeURIComponent(asset)}/files`, provider };
    case "zip":
      return { kind, path: ZIP_PATH };
    case "kit":
      return { kind, path: KIT_PATH };
  }
}

export function searchFor(query: string): Planned {
  return { kind: "search", path: `/v1/search?q=${encodeURIComponent(query)}`, query };
}

function details(asset: string): Planned {
  return { kind: "details", path: `/v1/assets/${encodeURIComponent(asset)}`, provider: asset.slice(0, asset.indexOf(":")) };
}

export const PACED: readonly Planned[] = [searchFor(DEAD.query), searchFor(HUNG.query), details(DEAD.asset)];
