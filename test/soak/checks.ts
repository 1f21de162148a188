/** What a soak must show, as a list of failures (empty = the run passed), each saying what was seen. */
import { CUT_FILE, DEAD, HUNG } from "./faults.ts";
import { BREAKER_THRESHOLD, type SoakReport } from "./soak.ts";

/** RSS after the load may exceed RSS after the warm-up by this much (each read after a full collection). */
export const RSS_MARGIN_BYTES = 50 * 1024 * 1024;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

export function failures(report: SoakReport): string[] {
  const out: string[] = [];
  const { tally, breaker } = report;
  const fail = (what: string) => out.push(what);

  const fiveHundreds = Object.entries(tally.statuses).filter(([status]) => status.startsWith("5"));
  const undocumented = sum(Object.fromEntries(fiveHundreds)) - tally.documented502;
  if (undocumented)
    fail(`${undocumented} responses 5xx other than the documented 502 of ${DEAD.source}'s asset (${fiveHundreds.map(([s, n]) => `${s}×${n}`).join(" ")})`);
  if (tally.unexpected.count) fail(`${tally.unexpected.count} answers the soak does not allow, e.g.:\n    ${tally.unexpected.examples.join("\n    ")}`);

  for (const replica of report.replicas) {
    const cut = tally.truncated.filter((t) => t.replica === replica.name);
    const other = cut.filter((t) => t.kind !== "kit");
    if (other.length) fail(`${replica.name}: ${other.length} zips truncated whose upstream was not made to fail: ${other.map((t) => t.why).join("; ")}`);
    const kits = cut.length - other.length;
    if (kits > report.plan.cuts) fail(`${replica.name}: ${kits} kit zips truncated, more than the ${report.plan.cuts} cuts of ${CUT_FILE.url}`);
    if (kits !== sum(replica.cutCounted)) {
      fail(
        `${replica.name}: the clients saw ${kits} kit zips truncated, the replica counted ${sum(replica.cutCounted)} (${JSON.stringify(replica.cutCounted)})`,
      );
    }
    if (kits === 0)
      fail(`${replica.name}: no download was cut: the run made fewer than ${report.plan.cutAfter + 1} kit downloads there (raise the seconds or clients)`);

    const reported = tally.reported[replica.name] ?? {};
    // With shared breakers a replica may only ever see it skipped.
    const dead = reported[DEAD.source] ?? {};
    if (!dead.error && !dead.skipped) fail(`${replica.name}: no search reported ${DEAD.source} failing or skipped (${JSON.stringify(dead)})`);
    const hung = reported[HUNG.source] ?? {};
    if (!hung.timeout && !hung.skipped) fail(`${replica.name}: no search reported ${HUNG.source} timed out or skipped (${JSON.stringify(hung)})`);

    const { rss: warm } = replica.memory.warm;
    const { rss: end } = replica.memory.end;
    if (end > warm + RSS_MARGIN_BYTES) fail(`${replica.name}: RSS ${mb(end)} after the load, over ${mb(warm)} after the warm-up + ${mb(RSS_MARGIN_BYTES)}`);

    if (replica.readyWithoutRedis?.status !== 503 || !replica.readyWithoutRedis.reasons.some((r) => r.includes("Redis"))) {
      fail(`${replica.name}: /ready did not answer 503 naming Redis while Redis was down (${JSON.stringify(replica.readyWithoutRedis)})`);
    }
    if (replica.readyAgainAfter === undefined) fail(`${replica.name}: /ready was not 200 again within 30 s of Redis's restart`);
    if (replica.pickedUpAfter === undefined) fail(`${replica.name}: /ready never named the new data set ${report.data.to}`);
    if (replica.exitCode !== 0) fail(`${replica.name}: exited with ${replica.exitCode} on SIGTERM, not 0`);
    if (replica.errors.length)
      fail(`${replica.name}: ${replica.errors.length} log lines at error, or of a stack:\n    ${replica.errors.slice(0, 5).join("\n    ")}`);
  }

  if (!Object.values(tally.reported).some((r) => r[DEAD.source]?.error)) fail(`no search reported ${DEAD.source} failing`);
  if (breaker.opened === undefined) fail(`no replica reported ${DEAD.source} skipped: its breaker did not open within the run`);
  else {
    const [before, after] = breaker.asks;
    const skipped = breaker.probes.every((s) => s === "skipped");
    if (breaker.failures >= BREAKER_THRESHOLD || !skipped || after !== before) {
      fail(
        `breakers not shared: after ${DEAD.source}'s breaker opened on ${breaker.opened.on}, ${breaker.other} (with ${breaker.failures} failed searches of its own in a row) ` +
          `reported it ${breaker.probes.join(", ")} and its searches reached it ${after - before} times (expected fewer than ${BREAKER_THRESHOLD} failures, skipped, 0)`,
      );
    }
  }
  return out;
}
