import type { Source } from "../core/source.ts";
import { blenderkit } from "./blenderkit.ts";
import { cgtrader } from "./cgtrader.ts";
import { fab } from "./fab.ts";
import { hdrihub } from "./hdrihub.ts";
import { hdrmaps } from "./hdrmaps.ts";
import { kenney } from "./kenney.ts";
import { polyfork } from "./polyfork.ts";
import { quaternius } from "./quaternius.ts";
import { texturescom } from "./texturescom.ts";
import { itchio } from "./itchio.ts";
import { opengameart } from "./opengameart.ts";
import { poliigon } from "./poliigon.ts";
import { polyhaven } from "./polyhaven.ts";
import { sketchfab } from "./sketchfab.ts";
import { turbosquid } from "./turbosquid.ts";

/** Every source, in the order the providers list shows them: indexed, live, then link-only. */
export const SOURCES: readonly Source[] = [
  polyhaven,
  kenney,
  quaternius,
  sketchfab,
  blenderkit,
  cgtrader,
  itchio,
  opengameart,
  polyfork,
  hdrmaps,
  hdrihub,
  texturescom,
  fab,
  poliigon,
  turbosquid,
];

export function findSource(id: string, sources: readonly Source[] = SOURCES): Source | undefined {
  return sources.find((s) => s.id === id);
}
