/**
 * The commands a test starts a child with: the launcher and the server as built by the global setup
 * (test/setup/build.ts builds them when stale), which start in a fraction of the time tsx takes to
 * compile the sources on every spawn.
 */
export const CLI = ["bin/asset-search.js"];
export const SERVER = ["dist/server/main.js"];
