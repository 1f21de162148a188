/** The soak's printed summary: the figures bench/README.md and the README's Deploy section quote. */
import { CUT_FILE, DEAD, HUNG } from "./faults.ts";
import { KINDS } from "./mix.ts";
import type { Memory } from "./replica.ts";
import type { SoakReport } from "./soak.ts";
import { quantile } from "./tally.ts";

const mb = (bytes: number | undefined) => (bytes === undefined ? "–" : (bytes / 1024 / 1024).toFixed(1));
const ms = (value: number) => (Number.isNaN(value) ? "–" : value < 10 ? value.toFixed(1) : value.toFixed(0));
const s = (seconds: number | undefined) => (seconds === undefined ? "never" : `${seconds.toFixed(1)} s`);
const counts = (c: Record<string, number>) =>
  Object.entries(c)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}×${v}`)
    .join(" ") || "none";
const row = (cells: (string | number)[], widths: number[]) => cells.map((c, i) => String(c).padStart(widths[i]!)).join(" ");

export function printSummary(report: SoakReport): string {
  const { tally, options, breaker } = report;
  const all = KINDS.flatMap((k) => tally.kinds[k].ms);
  const widths = [8, 7, 8, 8, 0];
  const lines = [
    `soak: ${options.seconds} s of load (the last answer at ${report.loadSeconds.toFixed(1)} s), ${options.clients} clients, 2 replicas (server/main.ts), a real redis-server, all on 127.0.0.1`,
    `faults, counted in each replica's upstream asks: ${DEAD.source} fails after ${report.plan.deadAfter}; ${HUNG.source}'s search hangs after ${report.plan.hungAfter}; ` +
      `${CUT_FILE.source}'s abel file cut ${report.plan.cuts}× after ${report.plan.cutAfter} downloads`,
    "timeline:",
    ...[...report.events, ...tally.firsts].sort((a, b) => a.at - b.at).map((e) => `  ${e.at.toFixed(1).padStart(6)} s  ${e.what}`),
    `requests: ${tally.requests}  statuses: ${counts(tally.statuses)}  (502: ${tally.documented502} documented, ${DEAD.source}'s asset after it died)`,
    row(["kind", "n", "p50 ms", "p99 ms", ""], widths),
    ...KINDS.map((k) =>
      row(
        [k, tally.kinds[k].ms.length, ms(quantile(tally.kinds[k].ms, 0.5)), ms(quantile(tally.kinds[k].ms, 0.99)), ` ${counts(tally.kinds[k].statuses)}`],
        widths,
      ),
    ),
    row(["all", all.length, ms(quantile(all, 0.5)), ms(quantile(all, 0.99)), ""], widths),
    "slowest answers:",
    ...tally.slowest.map((a) => `  ${ms(a.ms).padStart(6)} ms  ${a.what}`),
    `searches reporting the faulty sources (their own queries): ${report.replicas.map((r) => `${r.name} ${DEAD.source} ${counts(tally.reported[r.name]?.[DEAD.source] ?? {})}, ${HUNG.source} ${counts(tally.reported[r.name]?.[HUNG.source] ?? {})}`).join("; ")}`,
    `zips: ${tally.wholeZips} whole, ${tally.truncated.length} truncated`,
    ...tally.truncated.map((t) => `  ${t.replica} ${t.kind} at ${t.at.toFixed(1)} s: ${t.why}`),
    `  counted by the replicas as cut (${CUT_FILE.source}): ${report.replicas.map((r) => `${r.name} ${counts(r.cutCounted)}`).join(", ")}`,
    `unexpected answers: ${tally.unexpected.count}`,
    ...tally.unexpected.examples.map((e) => `  ${e}`),
    "memory MB, after a full collection: RSS (V8 heap used + external)",
    `  ${"".padEnd(4)}${["start", "after warm-up", "end"].map((h) => h.padStart(22)).join("")}${"end−warm".padStart(10)}${"peak RSS".padStart(10)}`,
    ...report.replicas.map(({ name, memory: m }) => {
      const cell = (x: Memory) => `${mb(x.rss)} (${mb(x.heapUsed)} + ${mb(x.external)})`.padStart(22);
      return `  ${name.padEnd(4)}${[m.start, m.warm, m.end].map(cell).join("")}${mb(m.end.rss - m.warm.rss).padStart(10)}${mb(m.peakRss).padStart(10)}`;
    }),
    breaker.opened === undefined
      ? `breakers: ${DEAD.source}'s never opened`
      : `breakers: ${DEAD.source}'s open on ${breaker.opened.on} at ${breaker.opened.at.toFixed(1)} s; ${breaker.other} (${breaker.failures} failed searches of its own in a row) then reported it ` +
        `${breaker.probes.join(", ")}, its searches reaching it ${breaker.asks[1] - breaker.asks[0]} times (${breaker.asks.join(" → ")})`,
    `redis down: /ready ${report.replicas.map((r) => `${r.name} ${r.readyWithoutRedis?.status ?? "–"}`).join(", ")}; 200 again after ${report.replicas.map((r) => `${r.name} ${s(r.readyAgainAfter)}`).join(", ")}`,
    `data: ${report.data.from} → ${report.data.to}; named by /ready after ${report.replicas.map((r) => `${r.name} ${s(r.pickedUpAfter)}`).join(", ")}`,
    `replicas: ${report.replicas.map((r) => `${r.name} exit ${r.exitCode}, warnings ${counts(r.warnings)}, errors ${r.errors.length}`).join("; ")}`,
  ];
  return lines.join("\n");
}
