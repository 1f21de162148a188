/**
 * Poliigon (https://www.poliigon.com): commercial PBR textures, models and HDRIs, with a free
 * section. The site blocks bots, so this is a link-only source: never fetched; a search answers
 * with the same search on the site (`/search/<text>`, a section filter and the free filter).
 */

import { type AssetType, compact } from "./kit/asset.ts";
import { linkSource, type SourceQuery } from "./kit/define.ts";
import { sole } from "./kit/filters.ts";

const SITE = "https://www.poliigon.com";

/** Poliigon's sections for the asked types, when they all name one. */
const SECTIONS: Partial<Record<AssetType, string>> = { texture: "textures", material: "textures", model: "models", hdri: "hdrs" };

function searchUrl(query: SourceQuery): string {
  const q = query.q.trim();
  const qs = new URLSearchParams(compact({ type: sole(query.types.map((t) => SECTIONS[t])), is_free: query.free ? "true" : undefined })).toString();
  return `${SITE}/search${q ? `/${encodeURIComponent(q)}` : ""}${qs ? `?${qs}` : ""}`;
}

export const poliigon = linkSource(
  {
    id: "poliigon",
    name: "Poliigon",
    homepage: SITE,
    description: "Commercial photoscanned PBR textures, 3D models and HDRIs with a small free section: best for high-end archviz materials. Link only.",
    assetTypes: ["texture", "material", "model", "hdri"],
    pricing: "freemium",
  },
  searchUrl,
);
