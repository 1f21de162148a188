import type { Source } from "../core/model/source.ts";
import { threeDAssets } from "./3dassets.ts";
import { threeDAssetsOne } from "./3dassetsone.ts";
import { threeDTexel } from "./3dtexel.ts";
import { threeDTextures } from "./3dtextures.ts";
import { ambientcg } from "./ambientcg.ts";
import { blenderkit } from "./blenderkit.ts";
import { cgbookcase } from "./cgbookcase.ts";
import { cgtrader } from "./cgtrader.ts";
import { fab } from "./fab.ts";
import { fontsource } from "./fontsource.ts";
import { freesound } from "./freesound.ts";
import { googlefonts } from "./googlefonts.ts";
import { gpuopen } from "./gpuopen.ts";
import { hdrihub } from "./hdrihub.ts";
import { hdrmaps } from "./hdrmaps.ts";
import { iconify } from "./iconify.ts";
import { itchio } from "./itchio.ts";
import { jamendo } from "./jamendo.ts";
import { kenney } from "./kenney.ts";
import { opengameart } from "./opengameart.ts";
import { openverse } from "./openverse.ts";
import { poliigon } from "./poliigon.ts";
import { polyfork } from "./polyfork.ts";
import { polyhaven } from "./polyhaven.ts";
import { quaternius } from "./quaternius.ts";
import { sharetextures } from "./sharetextures.ts";
import { sketchfab } from "./sketchfab.ts";
import { texturecan } from "./texturecan.ts";
import { texturescom } from "./texturescom.ts";
import { thingiverse } from "./thingiverse.ts";
import { turbosquid } from "./turbosquid.ts";

/** Every source, in the order the providers list shows them: indexed, live, then link-only. */
export const SOURCES: readonly Source[] = [
  polyhaven,
  cgbookcase,
  kenney,
  quaternius,
  fontsource,
  googlefonts,
  iconify,
  gpuopen,
  ambientcg,
  sharetextures,
  threeDTextures,
  texturecan,
  sketchfab,
  blenderkit,
  cgtrader,
  itchio,
  opengameart,
  polyfork,
  hdrmaps,
  hdrihub,
  texturescom,
  openverse,
  freesound,
  jamendo,
  thingiverse,
  threeDAssets,
  threeDTexel,
  threeDAssetsOne,
  fab,
  poliigon,
  turbosquid,
];

export const findSource = (id: string, sources: readonly Source[] = SOURCES): Source | undefined => sources.find((s) => s.id === id);
