/**
 * Vitest's global setup: the web app's pages link the built bundle (dist/web/, server/web/bundle.ts),
 * so the tests build it first when it is missing or stale, as `npm start` does.
 */
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "../../bin/freshness.js";

export default async function setup(): Promise<void> {
  await ensureBuilt(fileURLToPath(new URL("../..", import.meta.url)), "server/main");
}
