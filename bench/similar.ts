/**
 * Similar assets (`GET /v1/assets/{id}/similar`): how good, on the judged set
 * test/relevance/similar-set.json, and how cheap, beside a search measured in the same run. Run
 * alone with `npx tsx bench/similar.ts`; `npm run bench` prints the same lines.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { loadConfig } from "../core/config.ts";
import { ReplayDispatcher } from "../core/http/replay.ts";
import { createRuntime } from "../core/model/runtime.ts";
import { SearchParams } from "../core/model/search-params.ts";
import { loadPublished } from "../core/publication/published.ts";
import { SimilarResponse } from "../core/schemas/index.ts";
import { BreakerRegistry } from "../core/search/circuit-breaker.ts";
import { searchRanked } from "../core/search/search.ts";
import { similarAssets } from "../core/search/similar.ts";
import { createApp } from "../server/app.ts";
import { createUsage } from "../server/stats/usage.ts";
import { SOURCES } from "../sources/index.ts";
import { NOW } from "../test/helpers/app.ts";
import { replayRuntime } from "../test/helpers/replay.ts";
import { QUERIES } from "./queries.ts";
import { gradeOf, judgedAssets, ndcgAt10, precisionAt5 } from "./relevance.ts";
import { percentile } from "./stats.ts";

/** The judged set of similar assets: per seed, its candidates graded 1 to 3 from their fields (0 when unlisted). */
export const SimilarSet = z.strictObject({
  note: z.string(),
  /** The sources whose records were pooled when the set was judged. */
  sources: z.array(z.string()).min(1),
  /** What test/similar-relevance.test.ts requires: the measured mean NDCG@10, rounded down, when it was last set. */
  minimumMeanNdcg: z.number().min(0).max(1),
  seeds: z.array(
    z.strictObject({
      id: z.string(),
      intent: z.string(),
      judgments: z.record(z.string(), z.union([z.literal(1), z.literal(2), z.literal(3)])),
    }),
  ),
});
export type SimilarSet = z.infer<typeof SimilarSet>;

export const loadSimilarSet = (): SimilarSet =>
  SimilarSet.parse(JSON.parse(readFileSync(new URL("../test/relevance/similar-set.json", import.meta.url), "utf8")));

/** The search side asks the indexed sources only, as the bench's other index-only figures do: no live source is waited for. */
const INDEXED_IDS = SOURCES.filter((s) => s.mode === "indexed")
  .map((s) => s.id)
  .join(",");

/** The app over the committed data/ index, the set's catalogue; no source is asked. */
function dataApp() {
  const runtime = replayRuntime({ now: NOW, env: { RATE_LIMIT_PER_MINUTE: "0" } });
  return createApp({ runtime, sources: SOURCES, published: loadPublished("data"), breakers: new BreakerRegistry(), usage: createUsage() });
}

/**
 * Each seed's first ten similar assets of the judged sources through the whole service, graded:
 * mean NDCG@10 and P@5. A source indexed after the set was judged is left out of the ten (its
 * results are ungraded, not irrelevant), so the figure stays comparable as the index grows; 20 are
 * asked for, which gathers as many candidates as the default 10 (core/relevance/similarity.ts pool).
 */
export async function measureSimilarity(set: SimilarSet = loadSimilarSet()) {
  const app = dataApp();
  const catalogue = new Map([...loadPublished("data").index.records()].map((a) => [a.id, a]));
  const judged = new Set(set.sources);
  const seeds = [];
  for (const seed of set.seeds) {
    const res = await app.fetch(new Request(`http://localhost/v1/assets/${encodeURIComponent(seed.id)}/similar?limit=20`));
    if (res.status !== 200) throw new Error(`${seed.id}: /similar answered ${res.status}`);
    const top = SimilarResponse.parse(await res.json())
      .results.filter((a) => judged.has(a.provider))
      .slice(0, 10);
    const grades = top.map((a) => gradeOf(a, seed.judgments));
    seeds.push({
      id: seed.id,
      ndcg10: ndcgAt10(grades, judgedAssets(seed.judgments, catalogue)),
      p5: precisionAt5(grades),
      top10: top.map((a, i) => `${grades[i]} ${a.id}`),
    });
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return { seeds: seeds.length, meanNdcg10: mean(seeds.map((s) => s.ndcg10)), meanP5: mean(seeds.map((s) => s.p5)), perSeed: seeds };
}

/**
 * p95 of similar assets against p95 of a search, side by side in one run over the same data/ index:
 * in process (core/search/similar.ts against the search's index query and ranking, searchRanked)
 * and through the app (the routes, JSON included). The seeds are the set's and every 7th record of
 * the index, whatever it holds; the searches are the bench's query mix over the indexed sources.
 * Each round runs the four in turn, starting one later than the round before, after a pass that
 * warms every seed and query.
 */
export async function benchSimilar(rounds = 3) {
  const published = loadPublished("data");
  const app = dataApp();
  const runtime = createRuntime(loadConfig({ RATE_LIMIT_PER_MINUTE: "0" }), { replay: new ReplayDispatcher() });
  const deps = { sources: SOURCES.filter((s) => s.mode === "indexed"), index: published.index, runtime, breakers: new BreakerRegistry() };
  const records = [...published.index.records()];
  const seeds = [...new Set([...loadSimilarSet().seeds.map((s) => s.id), ...records.filter((_, i) => i % 7 === 0).map((a) => a.id)])];
  const n = Math.max(seeds.length, 200);
  const time = async (run: () => unknown) => {
    const started = performance.now();
    await run();
    return performance.now() - started;
  };
  const fetchOk = async (path: string) => {
    const res = await app.fetch(new Request(`http://localhost${path}`));
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    await res.text();
  };
  const similarCall = (i: number) => similarAssets(published.index, SOURCES, seeds[i % seeds.length]!, { limit: 10, type: [] });
  const searchCall = (i: number) => searchRanked(SearchParams.parse({ q: QUERIES[i % QUERIES.length]! }), deps);
  const similarPath = (i: number) => `/v1/assets/${encodeURIComponent(seeds[i % seeds.length]!)}/similar`;
  const searchPath = (i: number) => `/v1/search?q=${encodeURIComponent(QUERIES[i % QUERIES.length]!)}&providers=${INDEXED_IDS}`;
  const times = { similar: [] as number[], search: [] as number[], similarFetch: [] as number[], searchFetch: [] as number[] };
  const blocks: [number[], (i: number) => unknown][] = [
    [times.similar, similarCall],
    [times.search, searchCall],
    [times.similarFetch, (i) => fetchOk(similarPath(i))],
    [times.searchFetch, (i) => fetchOk(searchPath(i))],
  ];
  // Warm every side as the search's queries are warm: every seed once (its first call, which reads
  // its candidates' records and postings from the index file, is kept apart as the cold figure).
  const cold: number[] = [];
  for (let i = 0; i < seeds.length; i++) cold.push(await time(() => similarCall(i)));
  for (const [, call] of blocks) for (let i = 0; i < seeds.length; i++) await call(i);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < blocks.length; k++) {
      const [into, call] = blocks[(round + k) % blocks.length]!;
      for (let i = 0; i < n; i++) into.push(await time(() => call(i)));
    }
  }
  const p95 = (xs: number[]) => percentile(xs, 95);
  const side = (similar: number[], search: number[]) => ({ similarP95Ms: p95(similar), searchP95Ms: p95(search), ratio: p95(similar) / p95(search) });
  return {
    seeds: seeds.length,
    calls: n * rounds,
    coldP95Ms: p95(cold),
    inProcess: side(times.similar, times.search),
    overFetch: side(times.similarFetch, times.searchFetch),
  };
}

/** The lines `npm run bench` prints. */
export function similarLines(quality: Awaited<ReturnType<typeof measureSimilarity>>, cost: Awaited<ReturnType<typeof benchSimilar>>): string[] {
  const { inProcess: p, overFetch: f } = cost;
  return [
    `similar: mean NDCG@10                     ${quality.meanNdcg10.toFixed(3)} (${quality.seeds} judged seeds; mean P@5 ${quality.meanP5.toFixed(3)})`,
    `similar: p95 / search p95, in process     ${p.ratio.toFixed(2)}x (${p.similarP95Ms.toFixed(2)} ms vs ${p.searchP95Ms.toFixed(2)} ms; target ≤ 2x; ${cost.calls} calls each, ${cost.seeds} seeds)`,
    `similar: p95 / search p95, through the app ${f.ratio.toFixed(2)}x (${f.similarP95Ms.toFixed(2)} ms vs ${f.searchP95Ms.toFixed(2)} ms; a seed's first call in process: p95 ${cost.coldP95Ms.toFixed(2)} ms)`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quality = await measureSimilarity();
  for (const s of quality.perSeed)
    console.log(`  ${s.id.padEnd(30)} NDCG@10 ${s.ndcg10.toFixed(3)}  P@5 ${s.p5.toFixed(2)}  ${s.top10.slice(0, 4).join(", ")}`);
  for (const line of similarLines(quality, await benchSimilar())) console.log(line);
}
