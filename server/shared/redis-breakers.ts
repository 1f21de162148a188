import type { Redis } from "ioredis";
import type { BreakerRegistry, SharedBreakers } from "../../core/search/circuit-breaker.ts";
import { luaScript } from "./lua.ts";

/** What the replicas say to one another: `{"id":…,"open":<ms left>}` or `{"id":…,"closed":true}`. */
export const BREAKER_CHANNEL = "asset-search:breakers";
const failuresKey = (id: string) => `asset-search:breaker:${id}:failures`;
const OPEN_PREFIX = "asset-search:breaker:";
const OPEN_SUFFIX = ":open";
const openKey = (id: string) => `${OPEN_PREFIX}${id}${OPEN_SUFFIX}`;

/**
 * Counts a failure for every replica, and opens the breaker everywhere when the replicas' failures
 * together reach the threshold or this replica's breaker opened (a failed probe re-opens it). The
 * count lives a cooldown: failures further apart than that do not add up across replicas.
 * KEYS: failures, open; ARGV: threshold, cooldown ms, opened here (1/0), channel, message.
 */
const FAILURE = `
local failures = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if ARGV[3] == '1' or failures >= tonumber(ARGV[1]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[2])
  redis.call('PUBLISH', ARGV[4], ARGV[5])
end
`;

/** A success closes the breaker everywhere; said only when there was a failure or an open breaker to forget. KEYS: failures, open; ARGV: channel, message. */
const SUCCESS = `
if redis.call('DEL', KEYS[1], KEYS[2]) > 0 then
  redis.call('PUBLISH', ARGV[1], ARGV[2])
end
`;

/**
 * The breakers' state shared through Redis: counts and "open" keys written by a Lua script, and
 * each change published on BREAKER_CHANNEL, which every replica (this one too) applies to its own
 * breakers as it comes, so a search reads them without asking Redis. A replica that (re)connects
 * reads the open keys first, for what it missed. While Redis is out of reach the writes fail and
 * are dropped: each replica counts alone meanwhile. The half-open probe stays each replica's own,
 * so after a cooldown each replica lets one search through to the source.
 */
export function redisBreakers(client: Redis, subscriber: Redis): SharedBreakers & { resync(): Promise<void> } {
  const failure = luaScript(client, "assetSearchBreakerFailure", 2, FAILURE);
  const success = luaScript(client, "assetSearchBreakerSuccess", 2, SUCCESS);
  let registry: BreakerRegistry | undefined;
  const ignore = () => undefined;

  subscriber.on("message", (channel: string, text: string) => {
    if (channel !== BREAKER_CHANNEL || !registry) return;
    try {
      const news = JSON.parse(text) as { id: string; open?: number; closed?: boolean };
      if (typeof news.open === "number") registry.heardOpen(news.id, news.open);
      else if (news.closed) registry.heardClosed(news.id);
    } catch {
      // Not one of ours: another program on the channel.
    }
  });

  return {
    attach(r) {
      registry = r;
    },
    failure(id, opened) {
      if (!registry) return;
      const { threshold, cooldownMs } = registry;
      const message = JSON.stringify({ id, open: cooldownMs });
      failure(failuresKey(id), openKey(id), threshold, cooldownMs, opened ? 1 : 0, BREAKER_CHANNEL, message).catch(ignore);
    },
    success(id) {
      success(failuresKey(id), openKey(id), BREAKER_CHANNEL, JSON.stringify({ id, closed: true })).catch(ignore);
    },
    /** The breakers open on other replicas, with the time each has left. */
    async resync() {
      if (!registry) return;
      for await (const keys of client.scanStream({ match: openKey("*"), count: 100 }) as AsyncIterable<string[]>) {
        for (const key of keys) {
          const left = await client.pttl(key);
          if (left > 0) registry.heardOpen(key.slice(OPEN_PREFIX.length, -OPEN_SUFFIX.length), left);
        }
      }
    },
  };
}
