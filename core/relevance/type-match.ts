import type { AssetType } from "../schemas/index.ts";
import type { QueryPlan } from "./query-plan.ts";

/** Texture and material match each other everywhere. */
export function expandTypes(types: readonly AssetType[]): AssetType[] {
  const out = new Set(types);
  if (out.has("texture")) out.add("material");
  if (out.has("material")) out.add("texture");
  return [...out];
}

/** The asset types the type signal rewards, and the sources whose listings count as packs (isOfTypes). */
export interface TypeWish {
  types: ReadonlySet<AssetType>;
  packProviders: ReadonlySet<string>;
}

/**
 * The requested types as asked (so the exact one is preferred over its texture/material twin) and
 * the types the query's type words name, texture and material alike.
 */
export const typeWish = (requested: readonly AssetType[], plan: QueryPlan, packProviders: ReadonlySet<string>): TypeWish => ({
  types: new Set([...requested, ...expandTypes(plan.boost)]),
  packProviders,
});

/**
 * The one pack rule, for filters and the type signal alike: a listing of a source whose unit is
 * packs counts as a pack, whatever kind of asset it holds.
 */
export const isOfTypes = (asset: { type: AssetType; provider: string }, types: ReadonlySet<AssetType>, packProviders: ReadonlySet<string>): boolean =>
  types.has(asset.type) || (types.has("pack") && packProviders.has(asset.provider));

export const isWished = (asset: { type: AssetType; provider: string }, wish: TypeWish): boolean => isOfTypes(asset, wish.types, wish.packProviders);
