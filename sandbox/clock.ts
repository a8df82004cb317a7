// The sandbox clock: real time plus an offset that `POST /_sandbox/clock` moves forward. Code
// expiry, token expiry, order timestamps and webhook retry schedules all read it, so advancing
// the clock makes a code expire or a retry become due without waiting.
export class SandboxClock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }

  get offsetSeconds(): number {
    return this.offsetMs / 1000;
  }

  /** The offset in milliseconds, as sandbox/state-file.ts saves it. */
  get offsetMilliseconds(): number {
    return this.offsetMs;
  }

  /** Puts back a saved offset, so that sandbox time goes on from where it was instead of jumping back. */
  restore(offsetMs: number): void {
    this.offsetMs = offsetMs;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
