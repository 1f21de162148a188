/**
 * Fab (https://www.fab.com): Epic Games' marketplace (Unreal Engine Marketplace, Quixel Megascans,
 * Sketchfab Store and ArtStation Marketplace content). The site blocks bots, so this is a link-only
 * source: it is never fetched; a search answers with the same search on the site.
 */

import type { AssetType } from "./kit/asset.ts";
import { linkSource, type SourceQuery } from "./kit/define.ts";
import { sole } from "./kit/filters.ts";

const SITE = "https://www.fab.com";

/** Fab's `listing_types` filter for the asked types, when they all name one of its kinds. */
const LISTING_TYPES: Partial<Record<AssetType, string>> = { model: "3d-model", material: "material", texture: "material" };

function searchUrl(query: SourceQuery): string {
  const params = new URLSearchParams();
  const q = query.q.trim();
  if (q) params.set("q", q);
  const kind = sole(query.types.map((t) => LISTING_TYPES[t]));
  if (kind) params.set("listing_types", kind);
  if (query.free) params.set("is_free", "1");
  const qs = params.toString();
  return `${SITE}/search${qs ? `?${qs}` : ""}`;
}

export const fab = linkSource(
  {
    id: "fab",
    name: "Fab",
    homepage: SITE,
    description:
      "Epic Games' marketplace (Unreal Engine Marketplace, Quixel Megascans, Sketchfab Store): best for Unreal-ready models, Megascans materials and environment packs. Link only.",
    assetTypes: ["model", "material", "texture", "sprite", "audio", "pack"],
    pricing: "freemium",
  },
  searchUrl,
);
