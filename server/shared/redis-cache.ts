import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import type { SharedCache } from "../../core/http/shared-cache.ts";
import type { TextResponse } from "../../core/http/types.ts";
import { luaScript } from "./lua.ts";

/** An entry is `asset-search:http:<sha256 of its URL and request headers>`: a key or token in them never shows in Redis's key names. */
const ENTRY_PREFIX = "asset-search:http:";
/** The entries in the order they were kept (a sorted set scored by time), their sizes (a hash) and the sum of those. */
const ORDER = "asset-search:http-order";
const SIZES = "asset-search:http-sizes";
const TOTAL = "asset-search:http-bytes";
/** A response larger than this stays in its replica's cache: one large page would push out many search pages. */
export const SHARED_ENTRY_MAX_BYTES = 1024 * 1024;

/**
 * Keeps an entry for its TTL and bounds the bytes of all of them: past `max`, the oldest entries go
 * first, as in the replicas' own caches (core/http/cache.ts). The bound is the cache's own, not a
 * `maxmemory` policy, because the same Redis holds the rate limit and the breakers, which an
 * eviction under memory pressure must not take. An entry that expired stays counted until it is
 * the oldest, which, all entries living as long, it soon is. The entry names are read from the
 * sorted set, so this assumes one Redis, not a cluster.
 * KEYS: entry, order, sizes, total; ARGV: body, TTL ms, now ms, max bytes.
 */
const KEEP = `
local size = #ARGV[1] + 3 * #KEYS[1]
local total = redis.call('INCRBY', KEYS[4], size - (tonumber(redis.call('HGET', KEYS[3], KEYS[1])) or 0))
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], KEYS[1])
redis.call('HSET', KEYS[3], KEYS[1], size)
while total > tonumber(ARGV[4]) do
  local oldest = redis.call('ZPOPMIN', KEYS[2])[1]
  if not oldest then
    redis.call('SET', KEYS[4], 0)
    break
  end
  total = redis.call('INCRBY', KEYS[4], -(tonumber(redis.call('HGET', KEYS[3], oldest)) or 0))
  redis.call('HDEL', KEYS[3], oldest)
  redis.call('DEL', oldest)
end
`;

/**
 * The upstream responses every replica shares, in Redis, up to `maxBytes` in all (HTTP_CACHE_SHARED_MAX_BYTES).
 * Redis out of reach or slower than the client's command timeout: a miss, and nothing kept.
 */
export function redisCache(client: Redis, maxBytes: number): SharedCache {
  const keep = luaScript(client, "assetSearchKeepResponse", 4, KEEP);
  const entry = (key: string) => ENTRY_PREFIX + createHash("sha256").update(key).digest("hex");
  return {
    async get(key) {
      try {
        const name = entry(key);
        const [body, ttlMs] = ((await client.multi().get(name).pttl(name).exec()) ?? []).map(([err, value]) => {
          if (err) throw err;
          return value;
        });
        if (typeof body !== "string" || typeof ttlMs !== "number" || ttlMs <= 0) return undefined;
        return { response: JSON.parse(body) as TextResponse, ttlMs };
      } catch {
        return undefined;
      }
    },
    async set(key, response, ttlMs) {
      const body = JSON.stringify(response);
      if (Buffer.byteLength(body) > Math.min(SHARED_ENTRY_MAX_BYTES, maxBytes)) return;
      await keep(entry(key), ORDER, SIZES, TOTAL, body, ttlMs, Date.now(), maxBytes).catch(() => undefined);
    },
  };
}
