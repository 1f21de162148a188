/**
 * `defineSource(meta, impl)`: a source from its facts and its functions. The functions receive a
 * SourceIo (fetches bound to the call's signal), every error leaving them becomes a SourceError
 * that names the source once, and the census gets its header (id, name, homepage, countedAt) and
 * what the facts already say (the unit; the type or the licence of a source of one type or licence).
 */

import type * as Contract from "../../core/model/source.ts";
import { toSourceError } from "../../core/model/source-error.ts";
import type { SourceCensus } from "../../core/schemas/index.ts";
import { type SourceIo, sourceIo } from "./fetch.ts";
import { NO_FILTERS } from "./filters.ts";

/** The contract's types an adapter's functions are written against. */
export type { SourceQuery, SourceSearchResult } from "../../core/model/source.ts";

/** A census as an adapter counts it; the header, the unit and (for a source of one type) the count by type come from the source's facts. */
export type CensusBody = Omit<SourceCensus, "id" | "name" | "homepage" | "countedAt" | "unit" | "byType"> & Partial<Pick<SourceCensus, "byType">>;

type Impl = Contract.IndexedFunctions<SourceIo, CensusBody> | Contract.LiveFunctions<SourceIo, CensusBody> | Contract.LinkFunctions<SourceIo, CensusBody>;
type Modes<I extends Impl> = I extends { mode: "indexed" } ? Contract.IndexedSource : I extends { mode: "live" } ? Contract.LiveSource : Contract.LinkSource;
/** The source's type, with `getAsset` and `census` present when the adapter has them. */
type Defined<I extends Impl> = Modes<I> & Pick<Required<Contract.LinkSource>, Extract<keyof I, "getAsset" | "census">>;

/**
 * The census with its header (who was counted, and when) and the source's unit. Every asset of a source of one type is of
 * that type, and of a source of one licence under it; a source of several types that does not count them gives no split.
 */
export function censusOf(meta: Contract.SourceMeta, now: Date, body: CensusBody): SourceCensus {
  const [type, ...others] = meta.assetTypes;
  const spdx = meta.license?.spdx;
  const facts = {
    ...(type && !others.length ? { byType: { [type]: body.total } } : {}),
    ...(spdx ? { byLicense: { [spdx]: body.total } } : {}),
    ...(meta.unit ? { unit: meta.unit } : {}),
  };
  return { id: meta.id, name: meta.name, homepage: meta.homepage, byType: {}, ...body, ...facts, countedAt: now.toISOString() };
}

export function defineSource<I extends Impl>(meta: Contract.SourceMeta, impl: I): Defined<I> {
  const call = async <T>(ctx: Contract.SourceContext, run: (io: SourceIo) => Promise<T>): Promise<T> => {
    try {
      return await run(sourceIo(meta.id, ctx));
    } catch (err) {
      throw toSourceError(meta.id, err);
    }
  };
  const { getAsset, census } = impl;
  return {
    ...meta,
    mode: impl.mode,
    searchUrl: impl.searchUrl,
    ...(impl.mode === "indexed" ? { crawl: (ctx: Contract.SourceContext) => call(ctx, impl.crawl) } : {}),
    ...(impl.mode === "live" ? { search: (query: Contract.SourceQuery, ctx: Contract.SourceContext) => call(ctx, (io) => impl.search(query, io)) } : {}),
    ...(getAsset ? { getAsset: (nativeId: string, ctx: Contract.SourceContext) => call(ctx, (io) => getAsset(nativeId, io)) } : {}),
    ...(census ? { census: (ctx: Contract.SourceContext) => call(ctx, async (io) => censusOf(meta, io.now(), await census(io))) } : {}),
  } as Defined<I>;
}

type LinkMeta = Pick<Contract.SourceMeta, "id" | "name" | "homepage" | "description" | "assetTypes" | "pricing">;

/**
 * A link-only source: the site blocks bots, so it is never fetched and nothing of it is downloadable; a search
 * answers with the same search on the site. No search-page parameter for a licence, format or order was found
 * documented on any of them: filters cannot be passed on.
 */
export function linkSource(meta: LinkMeta, searchUrl: (query: Contract.SourceQuery) => string) {
  return defineSource({ ...meta, access: "link", supportsDownload: false, unit: "assets", filtering: NO_FILTERS }, { mode: "link", searchUrl });
}
