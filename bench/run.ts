import { mkdirSync, writeFileSync } from "node:fs";
import { benchSearch } from "./search.ts";

/** Runs every benchmark, prints its ratios and writes them to bench/results/<name>.json. */
const results = { search: await benchSearch() };
mkdirSync("bench/results", { recursive: true });
for (const [name, result] of Object.entries(results)) {
  writeFileSync(`bench/results/${name}.json`, `${JSON.stringify({ measuredAt: new Date().toISOString(), ...result }, null, 2)}\n`);
}
const s = results.search;
console.log(`search: HTTP / in-process index query      ${s.serverOverhead.ratio.toFixed(2)}x (${s.serverOverhead.httpMedianMs.toFixed(2)} ms vs ${s.serverOverhead.inProcessMedianMs.toFixed(2)} ms median)`);
console.log(`search: fan-out median / delay D          ${s.fanOut.ratio.toFixed(2)} (${s.fanOut.sources} sources, D = ${s.fanOut.delayMs} ms, median ${s.fanOut.medianMs.toFixed(0)} ms)`);
console.log(`search: index-only requests per second    ${s.throughput.requestsPerSecond} (p99 ${s.throughput.p99Ms} ms, ${s.throughput.errors} errors, ${s.throughput.non2xx} non-2xx)`);
