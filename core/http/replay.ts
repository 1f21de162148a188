import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { Dispatcher } from "undici";
import { z } from "zod";

/** One recorded (or, for faults, scripted) upstream response. */
export const ReplayEntry = z.object({
  method: z.string().default("GET"),
  url: z.url(),
  /** Body file, relative to the manifest that lists it. */
  file: z.string().optional(),
  /** Inline body, for small scripted responses in tests. */
  body: z.string().optional(),
  status: z.int().default(200),
  headers: z.record(z.string(), z.string()).default({}),
  /** Wait this long before the response headers. */
  delayMs: z.int().min(0).default(0),
  /** reset: the connection drops before headers; hang: never answers (until aborted);
   *  truncate: half the body, then the connection drops. */
  fault: z.enum(["reset", "hang", "truncate"]).optional(),
  /** Answer only the next `times` requests, then step aside for the next entry of the same URL
   *  (a 503 then a 200 …). Without it the entry answers for ever. See `add`. */
  times: z.int().min(1).optional(),
  note: z.string().optional(),
});
export type ReplayEntryInput = z.input<typeof ReplayEntry>;
type Entry = z.output<typeof ReplayEntry> & { bytes: Buffer; left?: number };
/** One request as the dispatcher received it (header names lower-cased). */
export interface ReplayRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
}

const Manifest = z.object({ note: z.string().optional(), entries: z.array(ReplayEntry) });

const keyOf = (method: string, url: string) => `${method.toUpperCase()} ${new URL(url).href}`;

/** Every `manifest.json` below `dir`, depth first, in name order. */
function manifestPaths(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...manifestPaths(path));
    else if (name === "manifest.json") out.push(path);
  }
  return out;
}

export class ReplayMissError extends Error {
  constructor(readonly url: string) {
    super(`no recorded response for ${url} (replay mode never reaches the network)`);
    this.name = "ReplayMissError";
  }
}

/**
 * An undici dispatcher that answers every request from recorded responses.
 * An unrecorded request fails like a network error that names the URL.
 */
export class ReplayDispatcher extends Dispatcher {
  /** Per method + URL: the entries with `times` in the order added, then at most one standing entry. */
  private readonly entries = new Map<string, Entry[]>();
  /**
   * What was asked, kept only when `record` was asked for: a server replaying for hours (the
   * README's offline mode, the benchmarks) would otherwise keep one record per upstream request.
   */
  private readonly recorded: { requested: string[]; log: ReplayRequest[] } | undefined;

  constructor(options: { record?: boolean } = {}) {
    super();
    this.recorded = options.record ? { requested: [], log: [] } : undefined;
  }

  /** Every URL asked, in order: tests assert the exact upstream URLs with it. */
  get requested(): string[] {
    return this.records().requested;
  }

  /** Every request, in order, with its headers (names lower-cased): tests assert what was sent. */
  get log(): ReplayRequest[] {
    return this.records().log;
  }

  private records(): { requested: string[]; log: ReplayRequest[] } {
    // Refused rather than empty, so that a test cannot pass by reading a log nobody kept.
    if (!this.recorded) throw new Error("this ReplayDispatcher does not record requests: create it with { record: true }");
    return this.recorded;
  }

  /** Loads every `manifest.json` below `dir`. A later entry for the same URL replaces an earlier one (entries with `times` queue up instead: see `add`). */
  static fromDirectory(dir: string, options: { record?: boolean } = {}): ReplayDispatcher {
    const replay = new ReplayDispatcher(options);
    for (const path of manifestPaths(dir)) {
      const manifest = Manifest.parse(JSON.parse(readFileSync(path, "utf8")));
      for (const entry of manifest.entries) replay.add(entry, dirname(path));
    }
    return replay;
  }

  /**
   * Adds an entry. Entries of the same method + URL form a queue: entries with `times` answer
   * first, in the order added, each for its `times` requests; then the standing entry (no
   * `times`) answers every later request. A standing entry replaces an earlier standing one (so a
   * later manifest wins). Once the queue is used up with no standing entry, requests miss.
   */
  add(input: ReplayEntryInput, baseDir = "."): this {
    const entry = ReplayEntry.parse(input);
    const bytes = entry.file ? readFileSync(join(baseDir, entry.file)) : Buffer.from(entry.body ?? "");
    const key = keyOf(entry.method, entry.url);
    const queue = this.entries.get(key) ?? [];
    const limited = queue.filter((e) => e.times !== undefined);
    const standing = queue.filter((e) => e.times === undefined);
    const added: Entry = { ...entry, bytes, ...(entry.times !== undefined ? { left: entry.times } : {}) };
    this.entries.set(key, entry.times === undefined ? [...limited, added] : [...limited, added, ...standing]);
    return this;
  }

  has(url: string, method = "GET"): boolean {
    return (this.entries.get(keyOf(method, url))?.length ?? 0) > 0;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const url = new URL(options.path, String(options.origin)).href;
    this.recorded?.requested.push(url);
    this.recorded?.log.push({ method: options.method, url, headers: headerRecord(options.headers) });
    const queue = this.entries.get(keyOf(options.method, url));
    const entry = queue?.[0];
    if (entry?.left !== undefined && --entry.left === 0) queue?.shift();
    void this.respond(url, entry, handler);
    return true;
  }

  private async respond(url: string, entry: Entry | undefined, handler: Dispatcher.DispatchHandler) {
    const sink = new HandlerSink(handler);
    if (!sink.start()) return;
    try {
      if (!entry) throw new ReplayMissError(url);
      if (entry.fault === "hang") await sink.untilAborted();
      if (entry.delayMs) await sink.sleep(entry.delayMs);
      if (entry.fault === "reset") throw Object.assign(new Error(`connection reset by ${url}`), { code: "ECONNRESET" });
      const bytes = entry.fault === "truncate" ? entry.bytes.subarray(0, Math.floor(entry.bytes.length / 2)) : entry.bytes;
      const headers: Record<string, string> = { "content-length": String(entry.bytes.length), ...lower(entry.headers) };
      if (!sink.headers(entry.status, headers)) return;
      // Chunks of 64 KiB, yielding between them, so a slow reader and an abort behave as on a socket.
      for (let i = 0; i < bytes.length; i += 65536) {
        if (sink.aborted) return;
        sink.data(bytes.subarray(i, i + 65536));
        await new Promise((r) => setImmediate(r));
      }
      if (entry.fault === "truncate") throw Object.assign(new Error(`connection to ${url} closed mid-body`), { code: "UND_ERR_SOCKET" });
      sink.end();
    } catch (err) {
      sink.error(err as Error);
    }
  }

  override async close(): Promise<void> {}
  override async destroy(): Promise<void> {}
}

/** The request headers undici hands a dispatcher (object, flat array or pairs) as one lower-cased record. */
function headerRecord(headers: Dispatcher.DispatchOptions["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) out[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
    return out;
  }
  const pairs = Symbol.iterator in headers ? [...(headers as Iterable<[string, unknown]>)] : Object.entries(headers);
  for (const [k, v] of pairs) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : String(v);
  return out;
}

const lower = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

/** Drives either handler API of undici 7 (the controller form or the older callback form). */
class HandlerSink {
  aborted = false;
  private reason: Error | undefined;
  private readonly waiters = new Set<() => void>();
  private readonly controller = {
    abort: (reason?: Error) => this.abort(reason),
    pause: () => {},
    resume: () => {},
    get aborted() {
      return false;
    },
    get paused() {
      return false;
    },
    get reason() {
      return null;
    },
  };

  constructor(private readonly handler: Dispatcher.DispatchHandler) {}

  private abort(reason?: Error) {
    this.aborted = true;
    this.reason = reason ?? new Error("aborted");
    for (const wake of this.waiters) wake();
  }

  start(): boolean {
    const h = this.handler;
    if (h.onRequestStart) h.onRequestStart(this.controller as never, {});
    else h.onConnect?.((err) => this.abort(err));
    if (!this.aborted) return true;
    this.error(this.reason!);
    return false;
  }

  /** Settles only when the requester aborts (undici calls the abort callback on its signal). */
  untilAborted(): Promise<never> {
    return new Promise((_, reject) => {
      const fail = () => reject(this.reason ?? new Error("aborted"));
      this.waiters.add(fail);
      if (this.aborted) fail();
    });
  }

  sleep(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const done = new Promise<void>((r) => (timer = setTimeout(r, ms)));
    return Promise.race([done, this.untilAborted()]).finally(() => clearTimeout(timer));
  }

  headers(status: number, headers: Record<string, string>): boolean {
    const h = this.handler;
    if (h.onResponseStart) h.onResponseStart(this.controller as never, status, headers, "");
    else {
      const raw = Object.entries(headers).flatMap(([k, v]) => [Buffer.from(k), Buffer.from(v)]);
      h.onHeaders?.(status, raw, () => {}, "");
    }
    return !this.aborted;
  }

  data(chunk: Buffer) {
    const h = this.handler;
    if (h.onResponseData) h.onResponseData(this.controller as never, chunk);
    else h.onData?.(chunk);
  }

  end() {
    const h = this.handler;
    if (h.onResponseEnd) h.onResponseEnd(this.controller as never, {});
    else h.onComplete?.([]);
  }

  error(err: Error) {
    const h = this.handler;
    if (h.onResponseError) h.onResponseError(this.controller as never, err);
    else h.onError?.(err);
  }
}
