/** Failures in a row that open a source's breaker, and how long it then stays open. */
export const BREAKER_THRESHOLD = 3;
export const BREAKER_COOLDOWN_MS = 60_000;

/** What a breaker tells its registry: a failure (and whether it opened the breaker), a success, a change of state. */
interface BreakerNews {
  failed(opened: boolean): void;
  succeeded(): void;
  changed(state: "open" | "closed"): void;
}

/**
 * Per-source circuit breaker: after `threshold` consecutive failures a source is skipped for
 * `cooldownMs` instead of costing its timeout on every search; then one probe at a time is let
 * through, and a success closes the breaker again.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | undefined;
  private probing = false;

  constructor(
    readonly threshold = BREAKER_THRESHOLD,
    readonly cooldownMs = BREAKER_COOLDOWN_MS,
    private readonly now: () => number = Date.now,
    private readonly news?: BreakerNews,
  ) {}

  /** Whether a request may go out now; when true in half-open state, the caller is the probe. */
  tryAcquire(): boolean {
    if (this.openedAt === undefined) return true;
    if (this.now() - this.openedAt < this.cooldownMs || this.probing) return false;
    this.probing = true;
    return true;
  }

  get state(): "closed" | "open" | "half-open" {
    if (this.openedAt === undefined) return "closed";
    return this.now() - this.openedAt < this.cooldownMs ? "open" : "half-open";
  }

  success(): void {
    this.close();
    this.news?.succeeded();
  }

  /** Neither: the caller gave up before the source answered (the client went away); a probe may go again. */
  release(): void {
    this.probing = false;
  }

  failure(): void {
    this.failures++;
    this.probing = false;
    const opens = this.openedAt !== undefined || this.failures >= this.threshold;
    if (opens) this.open(0);
    this.news?.failed(opens);
  }

  /** Opens as if `ago` milliseconds ago: another replica opened it then (or this one just did, 0). */
  open(ago: number): void {
    const closed = this.openedAt === undefined;
    this.openedAt = this.now() - ago;
    if (closed) this.news?.changed("open");
  }

  /** Closed, with no failure counted: the source answered here or on another replica. */
  close(): void {
    const open = this.openedAt !== undefined;
    this.failures = 0;
    this.openedAt = undefined;
    this.probing = false;
    if (open) this.news?.changed("closed");
  }
}

/**
 * How the breakers of one replica learn from the others' and tell them of their own
 * (server/shared/redis-breakers.ts, through Redis). A failure or success is told as it happens,
 * without waiting: the search never waits for the other replicas, and what they say comes back
 * through `attach`'s registry.
 */
export interface SharedBreakers {
  /** From now on, what the other replicas say reaches `registry` (its `heardOpen` and `heardClosed`). */
  attach(registry: BreakerRegistry): void;
  /** `id` failed here; `opened`: this failure opened (or re-opened) its breaker here. */
  failure(id: string, opened: boolean): void;
  /** `id` answered here: its breaker closes everywhere. */
  success(id: string): void;
}

export interface BreakerOptions {
  /** Hears a breaker open (from closed) or close, whether this replica or another caused it (the log). */
  onChange?: (id: string, state: "open" | "closed") => void;
  /** The other replicas' breakers (REDIS_URL); without it each replica counts alone. */
  shared?: SharedBreakers;
}

/** One breaker per source id, created on first use. */
export class BreakerRegistry {
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(
    readonly threshold = BREAKER_THRESHOLD,
    readonly cooldownMs = BREAKER_COOLDOWN_MS,
    private readonly now: () => number = Date.now,
    private readonly options: BreakerOptions = {},
  ) {
    options.shared?.attach(this);
  }

  for(id: string): CircuitBreaker {
    let b = this.breakers.get(id);
    if (!b) {
      const { shared, onChange } = this.options;
      b = new CircuitBreaker(this.threshold, this.cooldownMs, this.now, {
        failed: (opened) => shared?.failure(id, opened),
        succeeded: () => shared?.success(id),
        changed: (state) => onChange?.(id, state),
      });
      this.breakers.set(id, b);
    }
    return b;
  }

  /** Another replica opened `id`'s breaker, which stays open for `leftMs` more. */
  heardOpen(id: string, leftMs: number): void {
    this.for(id).open(this.cooldownMs - leftMs);
  }

  /** `id` answered on another replica. */
  heardClosed(id: string): void {
    this.for(id).close();
  }
}
