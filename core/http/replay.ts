import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
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
  note: z.string().optional(),
});
export type ReplayEntryInput = z.input<typeof ReplayEntry>;
type Entry = z.output<typeof ReplayEntry> & { bytes: Buffer };

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
 * An undici dispatcher that answers every request from recorded responses (DESIGN.md §3).
 * An unrecorded request fails like a network error that names the URL.
 */
export class ReplayDispatcher extends Dispatcher {
  private readonly entries = new Map<string, Entry>();
  /** Every URL asked, in order: tests assert the exact upstream URLs with it. */
  readonly requested: string[] = [];

  /** Loads every `manifest.json` below `dir`. A later entry for the same URL replaces an earlier one. */
  static fromDirectory(dir: string): ReplayDispatcher {
    const replay = new ReplayDispatcher();
    for (const path of manifestPaths(dir)) {
      const manifest = Manifest.parse(JSON.parse(readFileSync(path, "utf8")));
      for (const entry of manifest.entries) replay.add(entry, dirname(path));
    }
    return replay;
  }

  add(input: ReplayEntryInput, baseDir = "."): this {
    const entry = ReplayEntry.parse(input);
    const bytes = entry.file ? readFileSync(join(baseDir, entry.file)) : Buffer.from(entry.body ?? "");
    this.entries.set(keyOf(entry.method, entry.url), { ...entry, bytes });
    return this;
  }

  has(url: string, method = "GET"): boolean {
    return this.entries.has(keyOf(method, url));
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const url = new URL(options.path, String(options.origin)).href;
    this.requested.push(url);
    const entry = this.entries.get(keyOf(options.method, url));
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
    get aborted() { return false; },
    get paused() { return false; },
    get reason() { return null; },
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
    return !this.aborted || (this.error(this.reason!), false);
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
