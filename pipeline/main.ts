import { appendFileSync } from "node:fs";
import { loadConfig } from "../core/config.ts";
import { createRuntime } from "../core/runtime.ts";
import { SOURCES } from "../sources/index.ts";
import { runPipeline } from "./run.ts";

const config = loadConfig();
const runtime = createRuntime(config);
const { catalog, outcomes } = await runPipeline({
  runtime,
  sources: SOURCES,
  dataDir: config.dataDir,
  log: (line) => console.error(line),
});
await runtime.http.close();

const summary = [
  `## Catalog census ${catalog.countedAt}`,
  "",
  `${catalog.totals.listings.count}${catalog.totals.listings.atLeast ? "+" : ""} listings from ${catalog.totals.sourcesCounted} sources ` +
    `(${catalog.totals.sourcesLinked} linked only)`,
  "",
  "| source | census | crawl | assets | ms | error |",
  "|---|---|---|---|---|---|",
  ...outcomes.map((o) => `| ${o.id} | ${o.census} | ${o.crawl} | ${o.assets} | ${o.tookMs} | ${o.error ?? ""} |`),
].join("\n");
// In GitHub Actions the summary shows on the run's page.
if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${summary}\n`);
console.error(summary);
