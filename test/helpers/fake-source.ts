import type { IndexedSource, LiveSource } from "../../core/model/source.ts";
import { SourceError } from "../../core/model/source-error.ts";
import type { Asset } from "../../core/schemas/index.ts";

/**
 * Synthetic live sources for the fan-out: each asks one URL of its own through the real client,
 * and the replay dispatcher answers it with the scripted delay or fault of the test.
 */
/** The upstream URL a fake source asks for a query (what a test scripts the replay answer for). */
export const fakeSearchUrl = (id: string, q: string, offset = 0) => `https://api.${id}.example/search?q=${encodeURIComponent(q)}&offset=${offset}`;

export function fakeSource(id: string): LiveSource {
  return {
    id,
    name: `Fake ${id}`,
    homepage: `https://${id}.example/`,
    description: "synthetic source for fan-out tests",
    assetTypes: ["model"],
    access: "api",
    pricing: "free",
    supportsDownload: true,
    mode: "live",
    searchUrl: (q) => `https://${id}.example/search?q=${encodeURIComponent(q.q)}`,
    async search(q, ctx) {
      const body = await ctx.http.getJson<{ items: { slug: string; name: string }[] }>(fakeSearchUrl(id, q.q, q.offset), { signal: ctx.signal });
      if (!Array.isArray(body.items)) throw new SourceError(id, "shape", "answer has no items");
      const assets: Asset[] = body.items.map((it) => ({
        id: `${id}:${it.slug}`,
        provider: id,
        nativeId: it.slug,
        title: it.name,
        type: "model",
        tags: [],
        url: `https://${id}.example/a/${it.slug}`,
        downloadable: true,
        price: { free: true },
      }));
      return { assets, total: assets.length };
    },
  };
}

/** An indexed fake: its assets come from the index a test builds, so its crawl finds nothing. */
export function fakeIndexedSource(id: string, over: Partial<Omit<IndexedSource, "mode">> = {}): IndexedSource {
  const { search: _search, ...meta } = fakeSource(id);
  return { ...meta, mode: "indexed", crawl: async () => [], ...over };
}
