import type { Redis } from "ioredis";

export type LuaScript = (...keysThenArgs: (string | number)[]) => Promise<unknown>;

/**
 * A Lua script run atomically in Redis, called with its `keys` keys and then its arguments: ioredis
 * sends the script's SHA and the whole script only when Redis does not hold it yet.
 */
export function luaScript(client: Redis, name: string, keys: number, lua: string): LuaScript {
  client.defineCommand(name, { numberOfKeys: keys, lua });
  const command = (client as unknown as Record<string, LuaScript>)[name]!;
  return (...keysThenArgs) => command.apply(client, keysThenArgs);
}
