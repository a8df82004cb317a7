// Counted per process, so the bound across a cluster is the limit times the instances.

export class FailureLimit {
  private windowStart = Number.NEGATIVE_INFINITY;
  private counts = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  private roll(): void {
    const start = Math.floor(this.now() / this.windowMs) * this.windowMs;
    // A new window forgets every key: the map holds at most one window's keys.
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.counts.clear();
    }
  }

  /** Takes one of `key`'s slots in this window; false (nothing taken) when none is left. */
  take(key: string): boolean {
    this.roll();
    const used = this.counts.get(key) ?? 0;
    if (used >= this.limit) return false;
    this.counts.set(key, used + 1);
    return true;
  }

  /** Gives back a slot taken for what turned out not to be a failure. */
  giveBack(key: string): void {
    this.roll();
    const used = this.counts.get(key) ?? 0;
    if (used > 0) this.counts.set(key, used - 1);
  }

  /** Whole seconds until the window ends: a Retry-After. */
  secondsLeft(): number {
    this.roll();
    return Math.max(1, Math.ceil((this.windowStart + this.windowMs - this.now()) / 1000));
  }
}
