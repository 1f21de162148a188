/**
 * One step of the scale bench (bench/scale.ts) in a process of its own, bundled and run with plain
 * node so that its start, its memory and its failures are its own. It writes one JSON line per
 * event to stdout: `{ "stage": … }` as each stage starts (so a crash names where it happened),
 * `{ "failed": …, "error": …, "at": … }` for a stage that threw, `{ "result": … }` at the end.
 *
 *   node child.mjs build <n> <seed> <file>   generate n assets, AssetIndex.build, write the index file <file>
 *   node child.mjs load <file>               open <file> in place (AssetIndex.open), search the mix
 *   node child.mjs browser <file> <dir>      write the browser index of <file> into <dir>, search the mix with search.ts
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { getHeapStatistics } from "node:v8";
import { gzipSync } from "node:zlib";
import { loadConfig } from "../core/config.ts";
import { ReplayDispatcher } from "../core/http/replay.ts";
import { openBrowserIndex } from "../core/index/browser/search.ts";
import { AssetIndex } from "../core/index/search-index.ts";
import { createRuntime } from "../core/model/runtime.ts";
import { SearchParams } from "../core/model/search-params.ts";
import { BreakerRegistry } from "../core/search/circuit-breaker.ts";
import { searchAll } from "../core/search/search.ts";
import { SOURCES } from "../sources/index.ts";
import { QUERIES } from "./queries.ts";
import { embeddedAssets, syntheticCatalogue } from "./scale-catalogue.ts";
import { percentile } from "./stats.ts";

const say = (event: object) => process.stdout.write(`${JSON.stringify(event)}\n`);
const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
const rssMiB = () => mib(process.memoryUsage().rss);
/** Peak resident set of this process so far (resourceUsage reports KiB). */
const peakMiB = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** The frames of `err` in this project's code (the bundle has source maps), to say where it failed. */
const where = (err: unknown) =>
  ((err as Error).stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 4)
    .map((line) => line.trim().replace(/^at /, ""));

/** Runs `fn` as stage `stage`: announced first, timed, or reported as the failure it threw. */
function stage<T>(name: string, fn: () => T): { value: T; ms: number } | undefined {
  say({ stage: name });
  const started = performance.now();
  try {
    const value = fn();
    return { value, ms: performance.now() - started };
  } catch (err) {
    say({ failed: name, error: `${(err as Error).name}: ${(err as Error).message}`, at: where(err) });
    return undefined;
  }
}

/**
 * The query mix as the service searches it with the seven indexed sources (core/search/search.ts
 * searchAll: the index query, each source's first page, the ranking of the page; nothing leaves
 * the process), in rounds over the ten queries: at least 3 rounds, at most 10, no new round after
 * `budgetMs`. `hits`: each query's hits over all sources; `firstRound`: each query asked the first time.
 */
async function queryMix(index: AssetIndex, budgetMs = 30_000) {
  const times: number[] = [];
  const hits: Record<string, number> = {};
  const started = performance.now();
  for (let round = 0; round < 10 && (round < 3 || performance.now() - started < budgetMs); round++) {
    for (const q of QUERIES) {
      const t = performance.now();
      const answer = await search(index, q);
      times.push(performance.now() - t);
      hits[q] = answer.providers.reduce((sum, p) => sum + (p.total ?? 0), 0);
    }
  }
  // The first round asks each query for the first time: nothing of it is among what the store read lately.
  const first = times.slice(0, QUERIES.length).sort((a, b) => a - b);
  times.sort((a, b) => a - b);
  return {
    searches: times.length,
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    maxMs: times.at(-1)!,
    firstRound: { p50Ms: percentile(first, 50), maxMs: first.at(-1)! },
    hits,
  };
}

const runtime = createRuntime(loadConfig({ RATE_LIMIT_PER_MINUTE: "0" }), { replay: new ReplayDispatcher() });
const breakers = new BreakerRegistry();
const INDEXED = SOURCES.filter((s) => s.mode === "indexed");
const search = (index: AssetIndex, q: string) => searchAll(SearchParams.parse({ q }), { sources: INDEXED, index, runtime, breakers });

async function build(n: number, seed: number, file: string) {
  const real = embeddedAssets();
  const generated = stage("generate", () => {
    const assets = [];
    for (const a of syntheticCatalogue(real, n, seed)) assets.push(a);
    return assets;
  });
  if (!generated) return;
  const rssGenerated = rssMiB();
  const built = stage("AssetIndex.build", () => AssetIndex.build(generated.value, "2026-11-25T00:00:00.000Z"));
  if (!built) return;
  generated.value.length = 0;
  const index = built.value;
  const rssBuilt = rssMiB();
  const written = stage("write the index file", () => index.write(file));
  say({
    result: {
      assets: index.documentCount,
      generateMs: generated.ms,
      buildMs: built.ms,
      writeMs: written?.ms,
      fileBytes: written ? statSync(file).size : undefined,
      rssAfterGenerateMiB: rssGenerated,
      rssAfterBuildMiB: rssBuilt,
      peakRssMiB: peakMiB(),
      heapLimitMiB: mib(getHeapStatistics().heap_size_limit),
    },
  });
}

async function load(file: string) {
  const opened = stage("AssetIndex.open", () => AssetIndex.open(file));
  if (!opened) return;
  const index = opened.value;
  const rssAfterOpen = rssMiB();
  say({ stage: "first search" });
  const firstStarted = performance.now();
  await search(index, QUERIES[0]!);
  // performance.now() counts from this process's start: the first complete answer of the index.
  say({ firstAnswer: performance.now() });
  const firstQueryMs = performance.now() - firstStarted;
  say({ stage: "query mix" });
  const mix = await queryMix(index);
  say({
    result: {
      assets: index.documentCount,
      openMs: opened.ms,
      firstQueryMs,
      rssAfterOpenMiB: rssAfterOpen,
      rssAfterQueriesMiB: rssMiB(),
      peakRssMiB: peakMiB(),
      heapLimitMiB: mib(getHeapStatistics().heap_size_limit),
      mix,
    },
  });
}

/** Every file under `dir` with its size. */
function filesUnder(dir: string): number[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => statSync(join(e.parentPath, e.name)).size);
}

/**
 * The browser index of the file: written (time, files, bytes), then each query of the mix searched
 * as a first visit would (a fresh openBrowserIndex, files read from disk): the files and the bytes
 * fetched, gzip-compressed as a static host sends JSON, the time without the network, and how many
 * of its first ten are among the server index's first ten.
 */
function browser(file: string, dir: string) {
  const opened = stage("AssetIndex.open", () => AssetIndex.open(file));
  if (!opened) return;
  const index = opened.value;
  const written = stage("write the browser index", () => index.writeBrowserIndex(dir));
  if (!written) return;
  const sizes = filesUnder(dir).sort((a, b) => a - b);
  say({ stage: "browser query mix" });
  return (async () => {
    const queries: { q: string; ms: number; files: number; gzipBytes: number; overlap: number }[] = [];
    for (const q of QUERIES) {
      const fetched: number[] = [];
      const get = async (url: string) => {
        const bytes = readFileSync(join(dir, url.replace("http://bench/v1/browser/", "")));
        fetched.push(gzipSync(bytes).length);
        return new Response(bytes);
      };
      const t = performance.now();
      const answer = await (await openBrowserIndex("http://bench", get)).search(q, 10);
      const ms = performance.now() - t;
      const server = new Set(
        index
          .search(q)
          .slice(0, 10)
          .map((hit) => hit.asset.id),
      );
      queries.push({
        q,
        ms,
        files: fetched.length,
        gzipBytes: fetched.reduce((a, b) => a + b, 0),
        overlap: answer.hits.filter((h) => server.has(h.record.id)).length,
      });
    }
    const by = (key: "ms" | "files" | "gzipBytes") => queries.map((x) => x[key]).sort((a, b) => a - b);
    say({
      result: {
        writeMs: written.ms,
        files: sizes.length,
        bytes: sizes.reduce((a, b) => a + b, 0),
        largestFileBytes: sizes.at(-1),
        medianFileBytes: percentile(sizes, 50),
        query: {
          p50Ms: percentile(by("ms"), 50),
          maxMs: by("ms").at(-1),
          p50Files: percentile(by("files"), 50),
          p50GzipBytes: percentile(by("gzipBytes"), 50),
          maxGzipBytes: by("gzipBytes").at(-1),
        },
        overlapAt10: queries.reduce((sum, x) => sum + x.overlap, 0) / (10 * queries.length),
        queries,
      },
    });
  })();
}

const [mode, ...args] = process.argv.slice(2);
if (mode === "build") await build(Number(args[0]), Number(args[1]), args[2]!);
else if (mode === "load") await load(args[0]!);
else if (mode === "browser") await browser(args[0]!, args[1]!);
else throw new Error(`usage: build <n> <seed> <file> | load <file> | browser <file> <dir>`);
