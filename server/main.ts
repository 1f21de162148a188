import { ConfigError } from "../core/config.ts";
import { startServer } from "./start.ts";

try {
  await startServer();
} catch (err) {
  // A configuration or start-up error is the operator's to fix: one line that says how, no stack.
  if (!(err instanceof ConfigError)) throw err;
  console.error(`asset-search: ${err.message}`);
  process.exit(1);
}
