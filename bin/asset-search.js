#!/usr/bin/env node
// The command line: the built one (dist/cli/main.js) when `npm run build` or `npm start` left a
// fresh build (bin/freshness.js), else the TypeScript (cli/main.ts) through tsx's loader.
import { fileURLToPath, pathToFileURL } from "node:url";
import { freshBuilt } from "./freshness.js";

const built = freshBuilt(fileURLToPath(new URL("..", import.meta.url)), "cli/main");
if (built) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../cli/main.ts");
}
