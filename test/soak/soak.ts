/**
 * The soak: two replicas (test/soak/replica.ts) sharing a real redis-server and one DATA_DIR,
 * under a fixed mix of requests from several clients (load.ts) for `seconds`, while the schedule
 * below runs its faults. Every server and daemon listens on 127.0.0.1 and is stopped at the end;
 * the run is bounded in time (the load stops at `seconds`, every wait has its bound).
 *
 * Schedule, as parts of the run (the replayed faults are counted in upstream asks, faults.ts):
 *   0.2  warm-up over: the clients are held while the replicas' memory is read, idle, after full
 *        collections (as before the load and after it: under load V8 holds a larger young generation)
 *   ~0.3 Sketchfab starts failing (500) on both; once a replica reports it skipped, the other
 *        must skip it too without asking it (watchBreakers), before Redis goes away
 *   ~0.4 3DTextures' search hangs on both
 *   0.6  Redis stopped (/ready 503 with REDIS_REQUIRED=true; requests go on, counted per replica)
 *   0.7  Redis started again on the same port
 *   0.8  a new data set published into DATA_DIR; both replicas must name it in /ready
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

/**
 * Whether a replica skipped the dead source without asking it, once one replica's searches
 * reported it skipped (a breaker open): the one with the fewest failures of its own in a row,
 * below the threshold of which its own breaker cannot have opened.
 */
export interface BreakerCheck {
  /** Seconds into the load when a replica first reported the dead source skipped, and which; undefined = never. */
  opened: { at: number; on: string } | undefined;
  /** The replica checked, and its own failures of the dead source in a row when it first skipped it (its searches' reports). */
  other: string;
  failures: number;
  /** The dead source's status in its probe searches. */
  probes: string[];
  /** Its searches that reached the dead source (its metrics, every query), before and after the probes. */
  asks: [number, number];
}

export interface SoakReport {
  options: SoakOptions;
  plan: FaultPlan;
  loadSeconds: number;
  tally: Tally;
  replicas: ReplicaFigures[];
  breaker: BreakerCheck;
  data: { from: string; to: string | undefined };
  /** What happened when, in seconds into the load. */
  events: { at: number; what: string }[];
}

/** Each replica gets the paced requests (mix.ts) once this often, so an ask of the faulty URLs is this much time. */
const PACE_MS = 1000;

/**
 * The fault plan of a run of `seconds` with `clients`: the paced asks put the failure and the hang
 * at 0.3 and 0.4 of the run (a little later: the warm-up's reading holds them). The kit's file is
 * asked once per kit zip, which a replica serves 0.2 to 0.7 times a second per client here (two
 * shared cores, busy or not): the cut comes in the first third of the run.
 */
export function faultPlan(seconds: number, clients: number): FaultPlan {
  const asks = (part: number) => Math.ceil((part * seconds * 1000) / PACE_MS);
  return { deadAfter: asks(0.3), hungAfter: asks(0.4), cutAfter: Math.ceil((seconds * clients) / 16), cuts: 3 };
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const dir = mkdtempSync(join(tmpdir(), "asset-search-soak-"));
  const started: Replica[] = [];
  let redis: RedisDaemon | undefined;
  try {
    const dataDir = join(dir, "data");
    const from = copyData(dataDir);
    const plan = faultPlan(options.seconds, options.clients);
    redis = await startRedis();
    // One folder: each replica counts its own asks, as each has its own connections to a site.
    const common = { dataDir, replayDir: replayFolder(join(dir, "replay"), plan), redisUrl: redis.url };
    const [a, b] = await Promise.all([startReplica({ ...common, name: "A" }), startReplica({ ...common, name: "B" })]);
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
      await at(0.6);
      redis = await redisOutage(redis!, context, fig, 0.7 * options.seconds);
      await at(0.8);
      return publish(dataDir, context, fig);
    };
    const [, , breaker, to] = await Promise.all([load.run(options.clients, () => endAt), load.pace(PACE_MS, () => endAt), watchBreakers(context), schedule()]);
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

/**
 * Waits until a replica reports the dead source skipped (a breaker open), then asks the replica
 * with the fewest failures of its own in a row (below the threshold, its own breaker cannot have
 * opened): its searches must report the source skipped while its count of searches that reached
 * the source stays put.
 */
async function watchBreakers({ replicas, load, note, now, endAt }: Context): Promise<BreakerCheck> {
  const check: BreakerCheck = { opened: undefined, other: "", failures: 0, probes: [], asks: [0, 0] };
  const skipping = () => replicas.find((r) => load.tally.reported[r.name]?.[DEAD.source]?.skipped);
  for (; !skipping(); await sleep(250)) if (performance.now() > endAt) return check;
  check.opened = { at: now(), on: skipping()!.name };
  note(`${check.opened.on} reports ${DEAD.source} skipped: a breaker is open`);
  await sleep(1000); // searches in flight when it opened finish
  const failures = (r: Replica) => load.tally.failuresInARow(r.name, DEAD.source);
  const other = [...replicas].sort((x, y) => failures(x) - failures(y))[0]!;
  const asks = () => other.counter(METRIC.sourceRequests, { source: DEAD.source });
  check.other = other.name;
  check.failures = failures(other);
  const before = await asks();
  for (let i = 0; i < 3; i++) {
    const answer = await load.send(other, searchFor(DEAD.query));
    check.probes.push(answer?.providers.find((p) => p.provider === DEAD.source)?.status ?? "no answer");
    await sleep(500);
  }
  check.asks = [before, await asks()];
  note(`${other.name} probed: ${DEAD.source} ${check.probes.join(", ")}`);
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
