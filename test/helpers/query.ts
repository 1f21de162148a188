import type { SourceQuery } from "../../core/model/source.ts";

/** A source query as a plain search hands it over: no filters, relevance order, the contract's default limit 24, offset 0. */
export function sourceQuery(q: string, over: Partial<SourceQuery> = {}): SourceQuery {
  return { q, types: [], free: false, downloadable: false, limit: 24, offset: 0, filters: {}, sort: "relevance", ...over };
}
