/** The words the search page uses for the API's values: asset types, sorts, how a source is searched, why one was skipped. */

import type { SearchParams } from "../../core/model/search-params.ts";
import type { AssetType, Provider } from "../../core/schemas/index.ts";

/** One and many of each type; keyed by the schema's type, so a new type fails the typecheck until it has words. */
export const TYPE_NAMES: Record<AssetType, { one: string; many: string }> = {
  model: { one: "Model", many: "Models" },
  texture: { one: "Texture", many: "Textures" },
  material: { one: "Material", many: "Materials" },
  hdri: { one: "HDRI", many: "HDRIs" },
  sprite: { one: "Sprite", many: "Sprites" },
  ui: { one: "UI", many: "UI" },
  audio: { one: "Audio", many: "Audio" },
  font: { one: "Font", many: "Fonts" },
  pack: { one: "Pack", many: "Packs" },
  other: { one: "Other", many: "Other" },
};

export const SORT_NAMES: Record<SearchParams["sort"], string> = {
  relevance: "Best match",
  newest: "Newest",
  name: "Name",
  popular: "Most downloaded",
};

export const MODE_NAMES: Record<NonNullable<Provider["mode"]>, string> = {
  indexed: "index",
  live: "live",
  link: "link",
};

/**
 * Why a source sat this search out, in plain words. The reasons are the server's own sentences
 * (core/search/search.ts, core/model/filters.ts), never a source's: those naming a key or a filter parameter are
 * said again for people, any other is shown as written.
 */
export function skipWhy(reason: string | undefined): string {
  if (!reason) return "not asked";
  const types = /^has no (.+) assets$/.exec(reason);
  if (types) return `has no ${types[1]!.split("/").join(" or ")} assets`;
  if (/^needs [A-Z0-9_]+$/.test(reason)) return "needs an API key on this server";
  const field = /^cannot filter by \w+: publishes no (.+)$/.exec(reason);
  if (field) return `lists no ${field[1]}`;
  const sort = /^cannot sort=\w+: publishes no (.+)$/.exec(reason);
  if (sort) return `lists no ${sort[1]} to sort by`;
  const licence = /^every asset is (.+), which \w+=\w+ leaves out$/.exec(reason);
  if (licence) return `everything there is ${licence[1]}, which the licence filter leaves out`;
  if (reason.startsWith("cooling down")) return "resting after repeated failures";
  return reason;
}
