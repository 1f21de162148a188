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
    readonly threshold = 3,
    readonly cooldownMs = 60_000,
    private readonly now: () => number = Date.now,
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
    this.failures = 0;
    this.openedAt = undefined;
    this.probing = false;
  }

  /** Neither: the caller gave up before the source answered (the client went away); a probe may go again. */
  release(): void {
    this.probing = false;
  }

  failure(): void {
    this.failures++;
    this.probing = false;
    if (this.openedAt !== undefined || this.failures >= this.threshold) this.openedAt = this.now();
  }
}

/** One breaker per source id, created on first use. */
export class BreakerRegistry {
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(
    private readonly threshold = 3,
    private readonly cooldownMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  for(id: string): CircuitBreaker {
    let b = this.breakers.get(id);
    if (!b) {
      b = new CircuitBreaker(this.threshold, this.cooldownMs, this.now);
      this.breakers.set(id, b);
    }
    return b;
  }
}
