/**
 * The soak (test/soak/soak.ts) at a short size: 30 s of load from 4 clients on two replicas with
 * a real redis-server, through every fault of the schedule. Its memory check compares the RSS read
 * on idle replicas after a 6 s warm-up with the same after the load: over 24 s and a few thousand
 * requests it catches memory kept per request, not a slow leak; `npm run soak` runs the long one.
 */
import { expect, it } from "vitest";
import { failures } from "./soak/checks.ts";
import { runSoak } from "./soak/soak.ts";
import { printSummary } from "./soak/summary.ts";

it("two replicas under load through a dying source, a hanging one, a Redis restart and a new data set: no undocumented 5xx, no unexplained truncated zip, shared breakers, RSS back", async () => {
  const report = await runSoak({ seconds: 30, clients: 4 });
  console.log(printSummary(report));
  expect(report.tally.requests).toBeGreaterThan(0);
  expect(failures(report)).toEqual([]);
}, 180_000);
