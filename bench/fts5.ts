/**
 * SQLite FTS5 on the scale bench's synthetic catalogues (bench/scale-catalogue.ts, seed 1) and its
 * query mix (bench/queries.ts), to compare with the index file engine (bench/README.md). For each size:
 * - build (this process): the records generated in batches; only the inserts into an FTS5 table
 *   (title, tags, categories, description, author; porter unicode61 remove_diacritics 2) and the
 *   record JSON into an ordinary table keyed by the FTS rowid are timed, then the FTS 'optimize'
 *   (one b-tree per index, as our index file is written once and read many times);
 * - search (a child process, the same file run by the same tsx): a new Database on the file (cold
 *   open) and RSS before and after it, then rounds of the mix: the top 20 by bm25 with the field
 *   weights of core/relevance/scoring.ts (SCORING.fields) with their records read and parsed, the same with
 *   the last word as a prefix, and the match count of each, each timed apart.
 * Usage: tsx bench/fts5.ts [sizes…] (default 100000 1000000). Files under the system's temporary folder, removed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { SCORING } from "../core/relevance/scoring.ts";
import type { Asset } from "../core/schemas/index.ts";
import { QUERIES } from "./queries.ts";
import { embeddedAssets, syntheticCatalogue } from "./scale-catalogue.ts";
import { median, percentile } from "./stats.ts";

const ROUNDS = 5;
const PAGE = 20;
const BATCH = 10_000;
const { title, tags, categories, description, author } = SCORING.fields;
/** bm25() takes the weights in column order: the table's columns are declared in this order. */
const RANK = `bm25(${title}, ${tags}, ${categories}, ${description}, ${author})`;

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));

/** Each word a quoted FTS5 string (implicit AND); `prefix` makes the last one a prefix query. */
const ftsQuery = (q: string, prefix: boolean) =>
  q
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => `"${w.replaceAll('"', '""')}"`)
    .join(" ") + (prefix ? "*" : "");

function build(file: string, n: number): { insertMs: number; optimizeMs: number } {
  const db = new Database(file);
  db.pragma("journal_mode = OFF");
  db.pragma("synchronous = OFF");
  db.exec(`CREATE VIRTUAL TABLE fts USING fts5(title, tags, categories, description, author, tokenize = 'porter unicode61 remove_diacritics 2');
    INSERT INTO fts(fts, rank) VALUES ('rank', '${RANK}');
    CREATE TABLE records (id INTEGER PRIMARY KEY, json TEXT NOT NULL);`);
  const ftsInsert = db.prepare("INSERT INTO fts (rowid, title, tags, categories, description, author) VALUES (?, ?, ?, ?, ?, ?)");
  const recordInsert = db.prepare("INSERT INTO records (id, json) VALUES (?, ?)");
  const insertBatch = db.transaction((batch: Asset[], first: number) => {
    batch.forEach((a, i) => {
      ftsInsert.run(first + i, a.title, a.tags.join(" "), (a.categories ?? []).join(" "), a.description ?? "", a.author ?? "");
      recordInsert.run(first + i, JSON.stringify(a));
    });
  });
  let insertMs = 0;
  let rowid = 1;
  let batch: Asset[] = [];
  const flush = () => {
    const started = performance.now();
    insertBatch(batch, rowid);
    insertMs += performance.now() - started;
    rowid += batch.length;
    batch = [];
  };
  for (const asset of syntheticCatalogue(embeddedAssets(), n, 1)) {
    batch.push(asset);
    if (batch.length === BATCH) flush();
  }
  flush();
  const started = performance.now();
  db.exec("INSERT INTO fts(fts) VALUES ('optimize')");
  const optimizeMs = performance.now() - started;
  db.close();
  return { insertMs, optimizeMs };
}

interface QueryStats {
  top: number[];
  prefixTop: number[];
  count: number[];
  matches: number;
  prefixMatches: number;
}

/** The child: cold open, then the rounds of the mix; prints its figures as one JSON line. */
function search(file: string) {
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const db = new Database(file, { readonly: true });
  const page = db.prepare(
    `SELECT r.json FROM (SELECT rowid, rank FROM fts WHERE fts MATCH ? ORDER BY rank LIMIT ${PAGE}) f JOIN records r ON r.id = f.rowid ORDER BY f.rank`,
  );
  const count = db.prepare("SELECT count(*) AS n FROM fts WHERE fts MATCH ?");
  const openMs = performance.now() - started;
  const rssOpen = process.memoryUsage().rss;
  const timed = <T>(fn: () => T): [T, number] => {
    const t = performance.now();
    const value = fn();
    return [value, performance.now() - t];
  };
  const readPage = (q: string) => (page.pluck().all(q) as string[]).map((json) => JSON.parse(json) as Asset).length;
  const stats = new Map<string, QueryStats>(QUERIES.map((q) => [q, { top: [], prefixTop: [], count: [], matches: 0, prefixMatches: 0 }]));
  let firstAnswerMs = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const q of QUERIES) {
      const s = stats.get(q)!;
      const [, topMs] = timed(() => readPage(ftsQuery(q, false)));
      if (round === 0 && q === QUERIES[0]) firstAnswerMs = performance.now() - started;
      s.top.push(topMs);
      s.prefixTop.push(timed(() => readPage(ftsQuery(q, true)))[1]);
      const [n, countMs] = timed(() => (count.get(ftsQuery(q, false)) as { n: number }).n);
      s.matches = n;
      s.count.push(countMs);
      s.prefixMatches = (count.get(ftsQuery(q, true)) as { n: number }).n;
    }
  }
  const rssAfter = process.memoryUsage().rss;
  db.close();
  console.log(JSON.stringify({ openMs, firstAnswerMs, rssBefore, rssOpen, rssAfter, stats: [...stats] }));
}

function measure(n: number) {
  const dir = mkdtempSync(join(tmpdir(), "fts5-bench-"));
  const file = join(dir, "fts.db");
  try {
    console.log(`\n${n.toLocaleString("en")} assets`);
    const { insertMs, optimizeMs } = build(file, n);
    console.log(`  build: inserts ${ms(insertMs / 1000)} s + optimize ${ms(optimizeMs / 1000)} s; file ${mib(statSync(file).size)} MiB`);
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), "search", file], { encoding: "utf8" });
    if (child.status !== 0) throw new Error(`search child: exit ${child.status ?? child.signal}\n${child.stderr}`);
    const r = JSON.parse(child.stdout) as {
      openMs: number;
      firstAnswerMs: number;
      rssBefore: number;
      rssOpen: number;
      rssAfter: number;
      stats: [string, QueryStats][];
    };
    console.log(`  open (child process, cold): ${ms(r.openMs)} ms; first top-20 answered ${ms(r.firstAnswerMs)} ms after the open began`);
    console.log(`  RSS: before open ${mib(r.rssBefore)} MiB (node + tsx), after open ${mib(r.rssOpen)} MiB, after the ${ROUNDS} rounds ${mib(r.rssAfter)} MiB`);
    const all = (k: "top" | "prefixTop" | "count") => r.stats.flatMap(([, s]) => s[k]);
    for (const [label, k] of [
      ["top 20 (AND)", "top"],
      ["top 20, last word prefix", "prefixTop"],
      ["count(*) (AND)", "count"],
    ] as const) {
      const xs = all(k);
      console.log(
        `  ${label.padEnd(26)} p50 ${ms(percentile(xs, 50))} ms, p95 ${ms(percentile(xs, 95))} ms, max ${ms(Math.max(...xs))} ms (${xs.length} queries)`,
      );
    }
    console.log(
      `  ${"query".padEnd(14)} ${"top20 ms".padStart(9)} ${"prefix ms".padStart(10)} ${"count ms".padStart(9)} ${"matches".padStart(9)} ${"prefix matches".padStart(15)}`,
    );
    for (const [q, s] of r.stats) {
      const cells = [ms(median(s.top)).padStart(9), ms(median(s.prefixTop)).padStart(10), ms(median(s.count)).padStart(9)];
      console.log(`  ${q.padEnd(14)} ${cells.join(" ")} ${String(s.matches).padStart(9)} ${String(s.prefixMatches).padStart(15)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "search") search(process.argv[3]!);
else {
  console.log(
    `${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${mib(totalmem())} MiB RAM, Node ${process.version}, SQLite ${new Database(":memory:").prepare("SELECT sqlite_version() AS v").pluck().get()}`,
  );
  const sizes = process.argv.slice(2).map(Number);
  for (const n of sizes.length ? sizes : [100_000, 1_000_000]) measure(n);
}
