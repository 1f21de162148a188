/**
 * The soak's clients: each sends the mix's next request (test/soak/mix.ts) to the replicas in
 * turn, as a load balancer would, and one more sends the paced requests to both; every answer is
 * read whole and judged. A zip is unzipped completely and compared, entry by entry, with the
 * same zip read before the faults.
 */
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { SearchResponse } from "../../core/schemas/index.ts";
import { unzip } from "../helpers/unzip.ts";
import { DEAD, HUNG } from "./faults.ts";
import { KIT_PATH, PACED, type Planned, planned, ZIP_PATH } from "./mix.ts";
import type { Replica } from "./replica.ts";
import { Tally } from "./tally.ts";

/** Longer than any answer of a healthy server takes (a hung source costs SOURCE_TIMEOUT_MS, 6 s). */
const REQUEST_TIMEOUT_MS = 60_000;

type Entries = Map<string, string>;

const digest = async (zip: Buffer): Promise<Entries> =>
  new Map([...(await unzip(zip))].map(([name, bytes]) => [name, createHash("sha256").update(bytes).digest("hex")]));

/** How `got` differs from `want`, or undefined. */
function difference(want: Entries, got: Entries): string | undefined {
  const missing = [...want.keys()].filter((name) => !got.has(name));
  if (missing.length) return `missing ${missing.join(", ")}`;
  const changed = [...want].filter(([name, hash]) => got.get(name) !== hash).map(([name]) => name);
  if (changed.length) return `changed ${changed.join(", ")}`;
  return got.size > want.size ? `${got.size - want.size} entries more` : undefined;
}

const excerpt = (body: Buffer | undefined) => (body ? body.subarray(0, 160).toString("utf8").replace(/\s+/g, " ") : "");

/** Each zip of the mix, read once before any fault: what every later copy must hold. */
export async function zipReferences(replica: Replica): Promise<Map<string, Entries>> {
  const out = new Map<string, Entries>();
  for (const path of [ZIP_PATH, KIT_PATH]) {
    const res = await replica.pool.request({ method: "GET", path });
    const body = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode} before the soak: ${excerpt(body)}`);
    out.set(path, await digest(body));
  }
  return out;
}

export class Load {
  readonly tally = new Tally();
  private next = 0;
  private inFlight = 0;
  /** Set while the clients are held (quiet). */
  private held: Promise<unknown> | undefined;

  /** `t0`: performance.now() when the load starts, for the times of the report. */
  constructor(
    private readonly replicas: readonly Replica[],
    private readonly reference: Map<string, Entries>,
    private readonly t0: number,
  ) {}

  /** `clients` loops, each taking the mix's next request, until performance.now() passes `endAt`. */
  async run(clients: number, endAt: () => number): Promise<void> {
    const client = async () => {
      while (performance.now() < endAt()) {
        if (this.held) {
          await this.held;
          continue;
        }
        const n = this.next++;
        await this.send(this.replicas[n % this.replicas.length]!, planned(n));
      }
    };
    await Promise.all(Array.from({ length: clients }, client));
  }

  /**
   * Sends every paced request (mix.ts) to every replica at once each `everyMs` until `endAt`,
   * without waiting for the answers (a hung search must not delay the next), then waits for them.
   */
  async pace(everyMs: number, endAt: () => number): Promise<void> {
    const sent: Promise<unknown>[] = [];
    for (let tick = performance.now(); tick < endAt(); tick += everyMs) {
      await sleep(Math.max(0, tick - performance.now()));
      if (this.held) {
        await this.held;
        tick = performance.now();
      }
      for (const replica of this.replicas) for (const request of PACED) sent.push(this.send(replica, request));
    }
    await Promise.all(sent);
  }

  /** Holds the clients, waits for every answer in flight, runs `read` on the idle replicas, then lets the clients go on. */
  async quiet<T>(read: () => Promise<T>): Promise<T> {
    let release!: () => void;
    this.held = new Promise<void>((resolve) => (release = resolve));
    try {
      while (this.inFlight > 0) await sleep(50);
      return await read();
    } finally {
      this.held = undefined;
      release();
    }
  }

  /** Sends one request, counts and judges its answer; returns a search's body. */
  async send(replica: Replica, request: Planned): Promise<SearchResponse | undefined> {
    const started = performance.now();
    let status: number | "no answer" = "no answer";
    let body: Buffer | undefined;
    let failure: string | undefined;
    this.inFlight++;
    try {
      const res = await replica.pool.request({ method: "GET", path: request.path, headersTimeout: REQUEST_TIMEOUT_MS, bodyTimeout: REQUEST_TIMEOUT_MS });
      status = res.statusCode;
      body = Buffer.from(await res.body.arrayBuffer());
    } catch (err) {
      failure = (err as Error).message;
    } finally {
      this.inFlight--;
    }
    const at = (started - this.t0) / 1000;
    const where = `${replica.name} GET ${request.path} at ${at.toFixed(1)} s`;
    this.tally.answered(request.kind, status, performance.now() - started, `${where}: ${status}`);
    if (status === "no answer") {
      this.tally.wrong(`${where}: no answer (${failure})`);
      return undefined;
    }
    if (request.kind === "zip" || request.kind === "kit") {
      await this.judgeZip(replica, request, status, body, failure, at, where);
      return undefined;
    }
    if (failure) this.tally.wrong(`${where}: ${status} cut short (${failure})`);
    else if (request.kind === "search") return this.judgeSearch(replica, request, status, body!, (performance.now() - this.t0) / 1000, where);
    else if (status === 502 && request.provider === DEAD.source && isErrorBody(body!)) this.tally.documented502++;
    else if (status !== 200) this.tally.wrong(`${where}: ${status} ${excerpt(body)}`);
    return undefined;
  }

  /** `answeredAt`: seconds into the load when the answer came, when the replica's state showed. */
  private judgeSearch(replica: Replica, request: Planned, status: number, body: Buffer, answeredAt: number, where: string): SearchResponse | undefined {
    if (status !== 200) {
      this.tally.wrong(`${where}: ${status} ${excerpt(body)}`);
      return undefined;
    }
    const answer = JSON.parse(body.toString("utf8")) as SearchResponse;
    for (const watched of [DEAD, HUNG]) {
      const report = answer.providers.find((p) => p.provider === watched.source);
      if (!report) this.tally.wrong(`${where}: ${watched.source} missing from providers`);
      else if (request.query === watched.query) this.tally.report(replica.name, watched.source, report.status, answeredAt);
    }
    return answer;
  }

  private async judgeZip(replica: Replica, request: Planned, status: number, body: Buffer | undefined, failure: string | undefined, at: number, where: string) {
    if (status !== 200) {
      this.tally.wrong(`${where}: ${status} ${excerpt(body)}`);
      return;
    }
    const cut = (why: string) => this.tally.truncated.push({ replica: replica.name, kind: request.kind, at, why });
    if (failure) return cut(`the response ended early (${failure})`);
    let got: Entries;
    try {
      got = await digest(body!);
    } catch (err) {
      return cut(`a ${body!.length}-byte body that is not a whole zip (${(err as Error).message})`);
    }
    const differs = difference(this.reference.get(request.path)!, got);
    if (differs) return cut(`a whole zip with other entries than before the faults: ${differs}`);
    this.tally.wholeZips++;
  }
}

function isErrorBody(body: Buffer): boolean {
  try {
    return typeof (JSON.parse(body.toString("utf8")) as { error?: unknown }).error === "string";
  } catch {
    return false;
  }
}
