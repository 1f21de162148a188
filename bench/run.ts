import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { benchColdStart } from "./coldstart.ts";
import { measureRelevance } from "./relevance.ts";
import { benchSearch } from "./search.ts";
import { benchSimilar, measureSimilarity, similarLines } from "./similar.ts";
import { benchWeb, webLines } from "./web.ts";
import { benchZip } from "./zip.ts";

/** Runs every benchmark, prints its figures and writes them to bench/results/<name>.json. */
const results = {
  coldStart: await benchColdStart(),
  search: await benchSearch(),
  relevance: await measureRelevance(),
  similar: { quality: await measureSimilarity(), cost: await benchSimilar() },
  zip: await benchZip(),
  web: await benchWeb(),
};
mkdirSync("bench/results", { recursive: true });
for (const [name, result] of Object.entries(results)) {
  writeFileSync(`bench/results/${name}.json`, `${JSON.stringify({ measuredAt: new Date().toISOString(), ...result }, null, 2)}\n`);
}
const s = results.search;
/** Index-only figures of the engine before the current one, measured back to back with it (bench/README.md). */
const baseline = JSON.parse(readFileSync("bench/baseline.json", "utf8")) as { commit: string; runs: { requestsPerSecond: number }[] };
const baselineRps = baseline.runs.reduce((sum, r) => sum + r.requestsPerSecond, 0) / baseline.runs.length;
console.log(
  `search: HTTP / in-process index query      ${s.serverOverhead.ratio.toFixed(2)}x (${s.serverOverhead.httpMedianMs.toFixed(2)} ms vs ${s.serverOverhead.inProcessMedianMs.toFixed(2)} ms median; node:http floor ${s.serverOverhead.floorRatio.toFixed(2)}x, ${s.serverOverhead.floorMedianMs.toFixed(2)} ms)`,
);
console.log(
  `search: fan-out median / delay D          ${s.fanOut.ratio.toFixed(2)} (${s.fanOut.sources} sources, D = ${s.fanOut.delayMs} ms, median ${s.fanOut.medianMs.toFixed(0)} ms)`,
);
console.log(
  `search: first results / full answer       ${s.firstResults.ratio.toFixed(3)} (one live source delayed ${s.firstResults.delayMs} ms: first results p50 ${s.firstResults.firstMedianMs.toFixed(1)} ms, target ≤ 50 ms; full answer p50 ${s.firstResults.fullMedianMs.toFixed(0)} ms; ${s.firstResults.rounds} searches)`,
);
console.log(
  `search: index-only requests per second    ${s.throughput.requestsPerSecond} (p99 ${s.throughput.p99Ms} ms, ${s.throughput.errors} errors, ${s.throughput.non2xx} non-2xx)`,
);
console.log(
  `search: requests per second / ${baseline.commit}    ${(s.throughput.requestsPerSecond / baselineRps).toFixed(2)}x (${Math.round(baselineRps)} before the current engine)`,
);
const r = results.relevance;
/** The relevance of the service when the junk floor's issue was filed, on the same judged set (bench/relevance-baseline.json). */
const before = JSON.parse(readFileSync("bench/relevance-baseline.json", "utf8")) as Pick<typeof r, "meanNdcg10" | "meanP5" | "junk" | "withoutRelevant"> & {
  commit: string;
};
const junkLine = (j: typeof r.junk) => `${(j.share * 100).toFixed(1)} % (${j.junk} of ${j.shown})`;
console.log(
  `relevance: mean NDCG@10                   ${r.meanNdcg10.toFixed(3)} (${r.queries} judged queries; ${before.meanNdcg10.toFixed(3)} at ${before.commit} on the same set)`,
);
console.log(`relevance: mean P@5                       ${r.meanP5.toFixed(3)} (${before.meanP5.toFixed(3)} at ${before.commit})`);
console.log(
  `relevance: junk share in short answers     ${junkLine(r.junk)}: grade 0 among the results shown in the top 10 of the ${r.junk.queries} queries with fewer than ten relevant assets; target ≤ 25 %; ${junkLine(before.junk)} at ${before.commit}`,
);
console.log(
  `relevance: no relevant result in top 10   ${r.withoutRelevant.length} queries${r.withoutRelevant.length ? ` (${r.withoutRelevant.join(", ")})` : ""}; ${before.withoutRelevant.length} at ${before.commit}`,
);
for (const line of similarLines(results.similar.quality, results.similar.cost)) console.log(line);
const z = results.zip;
for (const [name, set] of [
  ["stored", z.stored],
  ["compressible", z.compressible],
] as const) {
  console.log(
    `zip: ${name.padEnd(12)} zip / plain download  ${set.ratio.toFixed(2)}x (median of rounds; ${set.zipMBps} vs ${set.plainMBps} MB/s, ${set.megabytes} MiB of files; CRC-32 floor ${set.crcFloorRatio.toFixed(2)}x)`,
  );
}
console.log(`zip: RSS growth streaming ${z.memory.archiveMiB} MiB     ${z.memory.rssGrowthMiB} MiB`);
const c = results.coldStart;
console.log(
  `start: built / tsx cold start to /health   ${c.ratio.toFixed(2)}x (median of ${c.runs}: ${c.medianMs.built} ms node dist/server/main.js vs ${c.medianMs.old} ms tsx server/main.ts)`,
);
console.log(
  `start: bin/start.js / tsx cold start       ${c.startRatio.toFixed(2)}x (${c.medianMs.start} ms: the freshness check, then the built server; npm itself in neither)`,
);
for (const line of webLines(results.web)) console.log(line);
