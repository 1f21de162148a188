/**
 * `defineSource(meta, impl)`: a source from its facts and its functions. The functions receive a
 * SourceIo (fetches bound to the call's signal), every error leaving them becomes a SourceError
 * that names the source once, and the census gets its header (id, name, homepage, countedAt).
 */

import type * as Contract from "../../core/model/source.ts";
import { toSourceError } from "../../core/model/source-error.ts";
import type { SourceCensus } from "../../core/schemas/index.ts";
import { type SourceIo, sourceIo } from "./fetch.ts";

/** A census as an adapter counts it; the header comes from the source's facts. */
export type CensusBody = Omit<SourceCensus, "id" | "name" | "homepage" | "countedAt">;

type Impl = Contract.IndexedFunctions<SourceIo, CensusBody> | Contract.LiveFunctions<SourceIo, CensusBody> | Contract.LinkFunctions<SourceIo, CensusBody>;
type Modes<I extends Impl> = I extends { mode: "indexed" } ? Contract.IndexedSource : I extends { mode: "live" } ? Contract.LiveSource : Contract.LinkSource;
/** The source's type, with `getAsset` and `census` present when the adapter has them. */
type Defined<I extends Impl> = Modes<I> & Pick<Required<Contract.LinkSource>, Extract<keyof I, "getAsset" | "census">>;

/** The census with its header: who was counted, and when. */
export function censusOf(meta: Contract.SourceMeta, now: Date, body: CensusBody): SourceCensus {
  return { id: meta.id, name: meta.name, homepage: meta.homepage, ...body, countedAt: now.toISOString() };
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
