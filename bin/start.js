#!/usr/bin/env node
// `npm start`: runs the built server (dist/server/main.js), building it first when dist/ is missing
// or older than the sources (bin/freshness.js), so a fresh clone starts with `npm ci && npm start`.
import { fileURLToPath, pathToFileURL } from "node:url";
import { ensureBuilt } from "./freshness.js";

const entry = await ensureBuilt(fileURLToPath(new URL("..", import.meta.url)), "server/main");
await import(pathToFileURL(entry).href);
