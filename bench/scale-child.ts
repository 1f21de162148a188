/**
 * One step of the scale bench (bench/scale.ts) in a process of its own, bundled and run with plain
 * node so that its start, its memory and its failures are its own. It writes one JSON line per
 * event to stdout: `{ "stage": … }` as each stage starts (so a crash names where it happened),
 * `{ "failed": …, "error": …, "at": … }` for a stage that threw, `{ "result": … }` at the end.
 *
 *   node child.mjs build <n> <seed> <file>   generate n assets, AssetIndex.build + serialize, write <file>
 *   node child.mjs load <file>               read <file>, AssetIndex.deserialize, query the mix
 */
import { once } from "node:events";
import { createWriteStream, readFileSync, statSync, writeFileSync } from "node:fs";
import { getHeapStatistics } from "node:v8";
import { createGzip } from "node:zlib";
import type { Asset } from "../core/schemas/index.ts";
import { AssetIndex } from "../core/search-index.ts";
import { QUERIES } from "./queries.ts";
import { embeddedAssets, syntheticCatalogue } from "./scale-catalogue.ts";

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

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * The query mix through `index.search` (the index query: every hit, ranked), in rounds over the
 * ten queries: at least 3 rounds, at most 10, no new round after `budgetMs`.
 */
function queryMix(index: AssetIndex, budgetMs = 30_000) {
  const times: number[] = [];
  const hits: Record<string, number> = {};
  const started = performance.now();
  for (let round = 0; round < 10 && (round < 3 || performance.now() - started < budgetMs); round++) {
    for (const q of QUERIES) {
      const t = performance.now();
      hits[q] = index.search(q).length;
      times.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  return { searches: times.length, p50Ms: percentile(times, 50), p95Ms: percentile(times, 95), maxMs: times.at(-1)!, hits };
}

/**
 * The format `serialize` writes (gzip of `{"builtAt":…,"assets":[…]}`, byte for byte the same JSON),
 * written record by record: only for a catalogue `serialize` cannot write, so that the load can
 * still be tried on the file the engine would need. The engine is not changed.
 */
async function writeStreaming(file: string, index: AssetIndex): Promise<void> {
  const gzip = createGzip();
  const out = gzip.pipe(createWriteStream(file));
  const write = async (chunk: string) => {
    if (!gzip.write(chunk)) await once(gzip, "drain");
  };
  await write(`{"builtAt":${JSON.stringify(index.builtAt)},"assets":[`);
  for (let i = 0; i < [...index.records()].length; i += 1000) {
    await write(
      (i ? "," : "") +
        [...index.records()]
          .slice(i, i + 1000)
          .map((a) => JSON.stringify(a))
          .join(","),
    );
  }
  await write("]}");
  gzip.end();
  await once(out, "finish");
}

async function build(n: number, seed: number, file: string) {
  const real = embeddedAssets();
  const generated = stage("generate", () => {
    const assets: Asset[] = [];
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
  // Private to the engine; read here only to describe the catalogue.
  const { words, terms } = index as unknown as { words: { size: number }; terms: { size: number } };
  const serialized = stage("serialize", () => index.serialize());
  let streamedMs: number | undefined;
  if (serialized) writeFileSync(file, serialized.value);
  else {
    say({ stage: "write the same format record by record (bench fallback)" });
    const started = performance.now();
    await writeStreaming(file, index);
    streamedMs = performance.now() - started;
  }
  // Without a file the engine can load, its query speed is still worth knowing: measured here, on the built index.
  const inBuildProcess = serialized ? undefined : stage("query mix in the building process", () => queryMix(index))?.value;
  say({
    result: {
      assets: index.documentCount,
      distinctWords: words.size,
      distinctTerms: terms.size,
      generateMs: generated.ms,
      buildMs: built.ms,
      serializeMs: serialized?.ms,
      streamedWriteMs: streamedMs,
      fileBytes: statSync(file).size,
      rssAfterGenerateMiB: rssGenerated,
      rssAfterBuildMiB: rssBuilt,
      peakRssMiB: peakMiB(),
      heapLimitMiB: mib(getHeapStatistics().heap_size_limit),
      inBuildProcess,
    },
  });
}

function load(file: string) {
  const read = stage("read the file", () => readFileSync(file));
  if (!read) return;
  const loaded = stage("AssetIndex.deserialize", () => AssetIndex.deserialize(read.value));
  if (!loaded) {
    say({ result: { readMs: read.ms, fileBytes: read.value.length, peakRssMiB: peakMiB() } });
    return;
  }
  const index = loaded.value;
  const rssAfterLoad = rssMiB();
  const first = stage("first query", () => index.search(QUERIES[0]!));
  // performance.now() counts from this process's start: the first complete answer of the index.
  say({ firstAnswer: performance.now() });
  const mix = stage("query mix", () => queryMix(index));
  say({
    result: {
      assets: index.documentCount,
      readMs: read.ms,
      deserializeMs: loaded.ms,
      firstQueryMs: first?.ms,
      rssAfterLoadMiB: rssAfterLoad,
      rssAfterQueriesMiB: rssMiB(),
      peakRssMiB: peakMiB(),
      heapLimitMiB: mib(getHeapStatistics().heap_size_limit),
      mix: mix?.value,
    },
  });
}

const [mode, ...args] = process.argv.slice(2);
if (mode === "build") await build(Number(args[0]), Number(args[1]), args[2]!);
else if (mode === "load") load(args[0]!);
else throw new Error(`usage: build <n> <seed> <file> | load <file>`);
