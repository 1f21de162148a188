/**
 * The fuzz suite (test/fuzz/run.ts) at a smaller size, with a fixed seed so a failure reproduces
 * with `npm run fuzz -- --seed 12 --count 500`. The full run is `npm run fuzz`.
 */
import { expect, it } from "vitest";
import { failures, printReport, runFuzz } from "./fuzz/run.ts";

it("500 malformed requests, each sent twice: no undocumented 5xx, every error a JSON body, /health 200, no memory growth on the second pass", async () => {
  const report = await runFuzz({ count: 500, seed: 12, settleMs: 5_000 });
  console.log(printReport(report));
  expect(report.sent).toBe(2 * 500);
  expect(failures(report)).toEqual([]);
}, 120_000);
