/**
 * The soak: two replicas (test/soak/replica.ts) sharing a real redis-server and one DATA_DIR,
 * under a fixed mix of requests from several clients (load.ts) for `seconds`, while the schedule
 * below runs its faults. Every server and daemon listens on 127.0.0.1 and is stopped at the end;
 * the run is bounded in time (the load stops at `seconds`, every wait has its bound).
 *
 * Schedule, as parts of the run (the replayed faults are counted in upstream asks, faults.ts):
 *   0.2  warm-up over: the clients are held while the replicas' memory is read, idle, after full
 *        collections (as before the load and after it: under load V8 holds a larger young generation)
 *   ~0.3 Sketchfab starts failing (500) on A; on B after twice as many asks, so that B, on its
 *        own, would still be asking it when A's breaker opens
 *   ~0.4 ambientCG's search hangs on both
 *   0.5  Redis stopped (/ready 503 with REDIS_REQUIRED=true; requests go on, counted per replica)
 *   0.6  Redis started again on the same port
 *   0.7  a new data set published into DATA_DIR; both replicas must name it in /ready
 *   1.0  load stops; memory read again, idle, as at 0.2
 * and the kit's abel file is cut mid-body for a few downloads on each replica.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Readiness } from "../../core/schemas/index.ts";
import { DOWNLOAD_FAILURE_REASONS, METRIC } from "../../server/stats/metrics.ts";
import { until } from "../helpers/daemon.ts";
import { type RedisDaemon, startRedis } from "../helpers/redis.ts";
import { copyData, publishAgain } from "./data-set.ts";
import { CUT_FILE, DEAD, type FaultPlan, replayFolder } from "./faults.ts";
import { Load, zipReferences } from "./load.ts";
import { searchFor } from "./mix.ts";
import { type Memory, type Replica, startReplica } from "./replica.ts";
import type { Tally } from "./tally.ts";

/** Failures in a row that open a source's breaker (core/search/circuit-breaker.ts's default). */
export const BREAKER_THRESHOLD = 3;

export interface SoakOptions {
  /** Seconds of load. */
  seconds: number;
  clients: number;
}

export interface ReplicaFigures {
  name: string;
  /** Each after a full collection: before the load, after the warm-up, after the load; and the peak RSS (VmHWM). */
  memory: { start: Memory; warm: Memory; end: Memory; peakRss: number | undefined };
  /** Zips this replica counted as cut short (its metrics), by reason. */
  cutCounted: Record<string, number>;
  /** /ready while Redis was down, and seconds until it was 200 again once Redis was back. */
  readyWithoutRedis: { status: number; reasons: string[] } | undefined;
  readyAgainAfter: number | undefined;
  /** Seconds from the publication until /ready named the new set. */
  pickedUpAfter: number | undefined;
  exitCode: number | null | undefined;
  errors: string[];
  warnings: Record<string, number>;
}

/** Whether B skipped the dead source without asking it once A's breaker had opened. */
export interface BreakerCheck {
  /** Seconds into the load when A first reported the dead source skipped; undefined = never. */
  openedOnA: number | undefined;
  /** B's own failures of the dead source by then (its searches' reports): below the threshold, B's own breaker is closed. */
  failuresOnB: number;
  /** The dead source's status in B's probe searches. */
  probes: string[];
  /** B's searches that reached the dead source (its metrics, every query), before and after the probes. */
  asksOnB: [number, number];
}

export interface SoakReport {
  options: SoakOptions;
  plan: { A: FaultPlan; B: FaultPlan };
  loadSeconds: number;
  tally: Tally;
  replicas: ReplicaFigures[];
  breaker: BreakerCheck;
  data: { from: string; to: string | undefined };
  /** What happened when, in seconds into the load. */
  events: { at: number; what: string }[];
}

/**
 * The fault plans of A and B for a run of `seconds` with `clients`: a search URL is asked about
 * once a second (faults.ts); a replica serves a kit zip 0.4 to 0.7 times a second per client
 * here (two shared cores), so the cut comes a fifth to a third into the run.
 */
export function faultPlans(seconds: number, clients: number): { A: FaultPlan; B: FaultPlan } {
  const cutAfter = Math.ceil((seconds * clients) / 8);
  const A = { deadAfter: Math.ceil(0.3 * seconds), hungAfter: Math.ceil(0.4 * seconds), cutAfter, cuts: 3 };
  return { A, B: { ...A, deadAfter: 2 * A.deadAfter } };
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const dir = mkdtempSync(join(tmpdir(), "asset-search-soak-"));
  const started: Replica[] = [];
  let redis: RedisDaemon | undefined;
  try {
    const dataDir = join(dir, "data");
    const from = copyData(dataDir);
    const plan = faultPlans(options.seconds, options.clients);
    redis = await startRedis();
    const common = { dataDir, redisUrl: redis.url, connections: options.clients };
    const [a, b] = await Promise.all([
      startReplica({ ...common, name: "A", replayDir: replayFolder(join(dir, "replay-a"), plan.A) }),
      startReplica({ ...common, name: "B", replayDir: replayFolder(join(dir, "replay-b"), plan.B) }),
    ]);
    started.push(a!, b!);
    const replicas = [a!, b!];
    const figures = new Map(replicas.map((r) => [r.name, blankFigures(r.name)]));
    const fig = (r: Replica) => figures.get(r.name)!;

    const references = await zipReferences(a!);
    await Promise.all(replicas.map(async (r) => (fig(r).memory.start = await r.memoryAfterGc())));
    const t0 = performance.now();
    const load = new Load(replicas, references, t0);
    const events: SoakReport["events"] = [];
    const now = () => (performance.now() - t0) / 1000;
    const note = (what: string) => events.push({ at: now(), what });
    const endAt = t0 + options.seconds * 1000;
    const at = (part: number) => sleep(Math.max(0, t0 + part * options.seconds * 1000 - performance.now()));

    const context = { replicas, load, note, now, endAt };
    const schedule = async () => {
      await at(0.2);
      const held = now();
      await load.quiet(() => Promise.all(replicas.map(async (r) => (fig(r).memory.warm = await r.memoryAfterGc()))));
      note(`warm-up over: load held ${(now() - held).toFixed(1)} s for the memory reading`);
      await at(0.5);
      redis = await redisOutage(redis!, context, fig, 0.6 * options.seconds);
      await at(0.7);
      return publish(dataDir, context, fig);
    };
    const [, breaker, to] = await Promise.all([load.run(options.clients, () => endAt), watchBreakers(context), schedule()]);
    const loadSeconds = now();
    note("load stopped");

    await Promise.all(replicas.map(async (r) => (fig(r).memory.end = await r.memoryAfterGc())));
    for (const r of replicas) {
      fig(r).memory.peakRss = r.peakRss();
      fig(r).cutCounted = await cutCounts(r);
    }
    for (const r of replicas) await r.pool.close();
    const codes = await Promise.all(replicas.map((r) => r.stop()));
    replicas.forEach((r, i) => {
      fig(r).exitCode = codes[i];
      fig(r).errors = r.errors();
      fig(r).warnings = r.warnings();
    });
    return { options, plan, loadSeconds, tally: load.tally, replicas: [...figures.values()], breaker, data: { from, to }, events };
  } finally {
    for (const r of started) r.kill();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Context {
  replicas: Replica[];
  load: Load;
  note: (what: string) => void;
  now: () => number;
  endAt: number;
}

const NO_MEMORY: Memory = { rss: 0, heapUsed: 0, external: 0 };

function blankFigures(name: string): ReplicaFigures {
  return {
    name,
    memory: { start: NO_MEMORY, warm: NO_MEMORY, end: NO_MEMORY, peakRss: undefined },
    cutCounted: {},
    readyWithoutRedis: undefined,
    readyAgainAfter: undefined,
    pickedUpAfter: undefined,
    exitCode: undefined,
    errors: [],
    warnings: {},
  };
}

/** Polls a replica's /ready until its answer `holds` (that answer) or `seconds` pass (undefined). */
async function readyWhen(replica: Replica, seconds: number, holds: (r: { status: number; body: Readiness }) => boolean) {
  return until(
    `${replica.name}'s /ready`,
    async () => {
      const answer = await replica.ready();
      return holds(answer) ? answer : undefined;
    },
    seconds * 1000,
  ).catch(() => undefined);
}

/** Stops Redis, reads /ready during the outage, starts it again on the same port when the run reaches `restartAt` seconds. */
async function redisOutage(redis: RedisDaemon, { replicas, note, now }: Context, fig: (r: Replica) => ReplicaFigures, restartAt: number) {
  await redis.stop();
  note(`Redis stopped (127.0.0.1:${redis.port})`);
  await Promise.all(
    replicas.map(async (r) => {
      const answer = await readyWhen(r, 10, (a) => a.status === 503);
      fig(r).readyWithoutRedis = answer && { status: answer.status, reasons: answer.body.reasons };
    }),
  );
  await sleep(Math.max(0, (restartAt - now()) * 1000));
  const again = await startRedis({ port: redis.port });
  note("Redis started again on the same port");
  const back = now();
  await Promise.all(
    replicas.map(async (r) => {
      if (await readyWhen(r, 30, (a) => a.status === 200)) fig(r).readyAgainAfter = now() - back;
    }),
  );
  return again;
}

/** Publishes a new set; returns its name once both replicas name it in /ready (or after three polls' time). */
async function publish(dataDir: string, { replicas, note, now }: Context, fig: (r: Replica) => ReplicaFigures): Promise<string> {
  const set = publishAgain(dataDir, new Date().toISOString());
  const published = now();
  note(`data set ${set} published`);
  await Promise.all(
    replicas.map(async (r) => {
      if (await readyWhen(r, 35, (a) => a.body.data?.set === set)) fig(r).pickedUpAfter = now() - published;
    }),
  );
  return set;
}

/** The dead source's failures (error, timeout) in one replica's searches for its query. */
const failuresOf = (load: Load, replica: string) => {
  const counts = load.tally.reported[replica]?.[DEAD.source] ?? {};
  return (counts.error ?? 0) + (counts.timeout ?? 0);
};

/**
 * Waits until A reports the dead source skipped (its breaker open), then asks B: B's own failures
 * must be below the threshold (its own breaker cannot be open), and B's searches must report the
 * source skipped while B's count of searches that reached it stays put.
 */
async function watchBreakers({ replicas, load, note, now, endAt }: Context): Promise<BreakerCheck> {
  const b = replicas[1]!;
  const check: BreakerCheck = { openedOnA: undefined, failuresOnB: 0, probes: [], asksOnB: [0, 0] };
  while (!load.tally.reported.A?.[DEAD.source]?.skipped) {
    if (performance.now() > endAt) return check;
    await sleep(250);
  }
  check.openedOnA = now();
  note(`${DEAD.source}'s breaker open on A (A reports it skipped)`);
  await sleep(1000); // B's searches in flight when it opened finish
  const asks = () => b.counter(METRIC.sourceRequests, { source: DEAD.source });
  check.failuresOnB = failuresOf(load, b.name);
  const before = await asks();
  for (let i = 0; i < 3; i++) {
    const answer = await load.send(b, searchFor(DEAD.query));
    check.probes.push(answer?.providers.find((p) => p.provider === DEAD.source)?.status ?? "no answer");
    await sleep(500);
  }
  check.asksOnB = [before, await asks()];
  note(`B probed: ${DEAD.source} ${check.probes.join(", ")}`);
  return check;
}

/** The replica's zips cut short, by reason, for the source of the cut file (client_gone is the client's doing). */
async function cutCounts(replica: Replica): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const reason of DOWNLOAD_FAILURE_REASONS.filter((r) => r !== "client_gone")) {
    const n = await replica.counter(METRIC.downloadFailures, { provider: CUT_FILE.source, reason });
    if (n) out[reason] = n;
  }
  return out;
}
