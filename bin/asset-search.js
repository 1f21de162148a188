#!/usr/bin/env node
// Runs the TypeScript command line (cli/main.ts) through tsx's loader, so no build step is needed.
import { register } from "tsx/esm/api";

register();
await import("../cli/main.ts");
