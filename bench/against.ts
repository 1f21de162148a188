/**
 * `npm run bench:against -- <other tree>`: in-process index search of this tree against another
 * checkout of the project (a worktree of an earlier commit, `git worktree add ../base <rev>` with
 * node_modules linked), each over its own data/, in one process: the two take turns query by query
 * through the bench's query mix, so the noise of a shared machine falls on both alike. Prints each
 * side's median and mean and this tree's ratio to the other.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { QUERIES } from "./queries.ts";

const ROUNDS = 12_000;
/** The first rounds warm both sides' code and caches and are not counted. */
const WARM = 2_000;

type Search = (q: string) => Promise<unknown>;

/** A tree's own search over its own data/, loaded from its files (not this tree's modules). */
async function searchOf(root: string): Promise<Search> {
  const from = (path: string) => import(resolve(root, path));
  const [{ searchRanked }, { SearchParams }, { loadPublished }, { BreakerRegistry }, { SOURCES }, { replayRuntime }] = await Promise.all([
    from("core/search/search.ts"),
    from("core/model/search-params.ts"),
    from("core/publication/published.ts"),
    from("core/search/circuit-breaker.ts"),
    from("sources/index.ts"),
    from("test/helpers/replay.ts"),
  ]);
  const deps = {
    sources: SOURCES.filter((s: { mode: string }) => s.mode === "indexed"),
    index: loadPublished(resolve(root, "data")).index,
    runtime: replayRuntime(),
    breakers: new BreakerRegistry(),
  };
  return (q) => searchRanked(SearchParams.parse({ q }), deps);
}

const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: sorted[sorted.length >> 1]!, mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
};

const other = process.argv[2];
if (!other) throw new Error("usage: npm run bench:against -- <path of another checkout>");
const here = resolve(fileURLToPath(import.meta.url), "../..");
const sides = [
  { name: "this tree", search: await searchOf(here), times: [] as number[] },
  { name: other, search: await searchOf(resolve(other)), times: [] as number[] },
];
for (let i = 0; i < ROUNDS; i++) {
  const q = QUERIES[i % QUERIES.length]!;
  for (let k = 0; k < sides.length; k++) {
    const side = sides[(i + k) % sides.length]!;
    const started = performance.now();
    await side.search(q);
    if (i >= WARM) side.times.push(performance.now() - started);
  }
}
const [mine, theirs] = sides.map((s) => ({ name: s.name, ...stats(s.times) }));
for (const s of [mine!, theirs!]) console.log(`${s.name}: median ${s.median.toFixed(3)} ms, mean ${s.mean.toFixed(3)} ms`);
console.log(
  `search in process, this tree / other: median ${(mine!.median / theirs!.median).toFixed(2)}x, mean ${(mine!.mean / theirs!.mean).toFixed(2)}x (${ROUNDS - WARM} searches each)`,
);
process.exit(0);
