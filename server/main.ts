import { serve } from "h3";
import { BreakerRegistry } from "../core/circuit-breaker.ts";
import { loadConfig } from "../core/config.ts";
import { createRuntime } from "../core/runtime.ts";
import { SOURCES } from "../sources/index.ts";
import { createApp } from "./app.ts";
import { loadPublished } from "./published.ts";

const config = loadConfig();
const runtime = createRuntime(config);
const published = loadPublished(config.dataDir);
const app = createApp({ runtime, sources: SOURCES, published, breakers: new BreakerRegistry() });

serve(app, { port: config.port, hostname: config.host, silent: true });
console.error(
  `asset-search listening on http://${config.host}:${config.port} — ${published.index.assets.length} indexed assets, ` +
    `${SOURCES.length} sources${config.replayDir ? `, replaying ${config.replayDir} (offline)` : ""}`,
);
