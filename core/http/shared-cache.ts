import type { TextResponse } from "./types.ts";

/**
 * A response cache other processes read too: the server keeps it in Redis for every replica
 * (server/shared/redis-cache.ts). It never throws: a store out of reach is a miss, and a response
 * it cannot keep is simply not kept, so the client goes on alone.
 */
export interface SharedCache {
  /** The response kept under `key`, and the milliseconds it has left; undefined on a miss. */
  get(key: string): Promise<{ response: TextResponse; ttlMs: number } | undefined>;
  /** Keeps `response` under `key` for `ttlMs`. */
  set(key: string, response: TextResponse, ttlMs: number): Promise<void>;
}
