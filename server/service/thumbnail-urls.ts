/**
 * The thumbnail URLs of recent search results: written by the search (server/service/search.ts),
 * read by the thumbnails (server/service/thumbnails.ts), held by the app's deps (server/context.ts),
 * so it imports none of them.
 */
import { LRUCache } from "lru-cache";
import type { Asset } from "../../core/schemas/index.ts";

/** Search results whose thumbnail URL is remembered (some 200 bytes each). */
const REMEMBERED_URLS = 20_000;

/** The thumbnail URLs of the results searches recently answered with, live ones included, by asset id. */
export class ThumbnailUrls {
  private readonly urls = new LRUCache<string, string>({ max: REMEMBERED_URLS });

  remember(assets: readonly Asset[]): void {
    for (const asset of assets) if (asset.thumbnailUrl) this.urls.set(asset.id, asset.thumbnailUrl);
  }

  get(id: string): string | undefined {
    return this.urls.get(id);
  }
}
