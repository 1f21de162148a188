/** What the soak's requests came to: counts by status and kind, latencies, and what went wrong. */
import { KINDS, type Kind } from "./mix.ts";

/** Examples of each kind of problem kept for the report (the counts are whole). */
const EXAMPLES = 20;
const SLOWEST = 10;

export interface Truncated {
  replica: string;
  kind: Kind;
  /** Seconds since the load started. */
  at: number;
  why: string;
}

export class Tally {
  requests = 0;
  readonly statuses: Record<string, number> = {};
  readonly kinds = Object.fromEntries(KINDS.map((k) => [k, { statuses: {} as Record<string, number>, ms: [] as number[] }])) as Record<
    Kind,
    { statuses: Record<string, number>; ms: number[] }
  >;
  /** 502s of the documented kind: an asset of the source made to fail. */
  documented502 = 0;
  wholeZips = 0;
  readonly truncated: Truncated[] = [];
  /** Answers the soak does not allow, by what was wrong; examples kept. */
  readonly unexpected = { count: 0, examples: [] as string[] };
  /** A source's status in the searches that ask it for real (its recorded query), by replica. */
  readonly reported: Record<string, Record<string, Record<string, number>>> = {};
  /** When each replica first reported each source in each status but ok (its answer's arrival), in seconds into the load. */
  readonly firsts: { at: number; what: string }[] = [];
  /** By replica and source: its failures (error, timeout) since it last reported the source ok. */
  private readonly runs = new Map<string, number>();
  /** By replica and source: that run when the replica first reported the source skipped. */
  private readonly runsAtSkip = new Map<string, number>();

  /** The slowest answers, slowest first: what the p99 is made of. */
  readonly slowest: { ms: number; what: string }[] = [];

  answered(kind: Kind, status: number | "no answer", ms: number, what: string): void {
    this.requests++;
    if (this.slowest.length < SLOWEST || ms > this.slowest.at(-1)!.ms) {
      this.slowest.push({ ms, what });
      this.slowest.sort((a, b) => b.ms - a.ms).splice(SLOWEST);
    }
    const key = String(status);
    this.statuses[key] = (this.statuses[key] ?? 0) + 1;
    this.kinds[kind].statuses[key] = (this.kinds[kind].statuses[key] ?? 0) + 1;
    this.kinds[kind].ms.push(ms);
  }

  wrong(what: string): void {
    this.unexpected.count++;
    if (this.unexpected.examples.length < EXAMPLES) this.unexpected.examples.push(what);
  }

  report(replica: string, source: string, status: string, at: number): void {
    const bySource = this.reported[replica] ?? {};
    const byStatus = bySource[source] ?? {};
    if (status !== "ok" && !byStatus[status]) this.firsts.push({ at, what: `${replica} reports ${source} ${status} for the first time` });
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    bySource[source] = byStatus;
    this.reported[replica] = bySource;
    const key = `${replica} ${source}`;
    if (status === "ok") this.runs.set(key, 0);
    else if (status === "error" || status === "timeout") this.runs.set(key, (this.runs.get(key) ?? 0) + 1);
    else if (status === "skipped" && !this.runsAtSkip.has(key)) this.runsAtSkip.set(key, this.runs.get(key) ?? 0);
  }

  /**
   * The replica's own failures of the source in a row when it first reported it skipped, or now
   * when it has not yet: a breaker of its own opens at the threshold of them.
   */
  failuresInARow(replica: string, source: string): number {
    const key = `${replica} ${source}`;
    return this.runsAtSkip.get(key) ?? this.runs.get(key) ?? 0;
  }
}

/** The q-quantile of `values` (nearest rank); NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
