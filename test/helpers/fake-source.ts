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

/**
 * A live fake that asks its URL only once the test releases the query: until then it is searching,
 * for as long as the test needs, with no delay to outlast. A release holds for every later search.
 */
export function heldSource(id: string): { source: LiveSource; release(q: string): void } {
  const base = fakeSource(id);
  const gates = new Map<string, { opened: Promise<void>; open(): void }>();
  const gate = (q: string) => {
    let found = gates.get(q);
    if (!found) {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      found = { opened, open };
      gates.set(q, found);
    }
    return found;
  };
  const source: LiveSource = {
    ...base,
    async search(q, ctx) {
      await gate(q.q).opened;
      return base.search(q, ctx);
    },
  };
  return { source, release: (q) => gate(q).open() };
}

/** An indexed fake: its assets come from the index a test builds, so its crawl finds nothing. */
export function fakeIndexedSource(id: string, over: Partial<Omit<IndexedSource, "mode">> = {}): IndexedSource {
  const { search: _search, ...meta } = fakeSource(id);
  return { ...meta, mode: "indexed", crawl: async () => [], ...over };
}
