/**
 * `npm run soak`: the long soak (test/soak/soak.ts) — SOAK_SECONDS of load (default 300, at most
 * 1800) from SOAK_CLIENTS clients (default 8, at most 32); prints the summary and exits 1 when a
 * check fails. test/soak.test.ts runs a short one as part of `npm test`.
 */
import { failures } from "./checks.ts";
import { runSoak } from "./soak.ts";
import { printSummary } from "./summary.ts";

/** A whole number from the environment within [min, max]; the default when unset. */
function bounded(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be a whole number from ${min} to ${max}, got '${raw}'`);
  return n;
}

const report = await runSoak({ seconds: bounded("SOAK_SECONDS", 300, 20, 1800), clients: bounded("SOAK_CLIENTS", 8, 1, 32) });
console.log(printSummary(report));
const failed = failures(report);
if (failed.length) {
  console.error(`soak: FAILED (${failed.length})\n- ${failed.join("\n- ")}`);
  process.exitCode = 1;
} else console.log("soak: every check passed");
