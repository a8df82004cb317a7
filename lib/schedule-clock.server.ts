import "server-only";

// The clock of what the dashboard does at a time of the seller's day: the morning digest
// (features/notifications/digest.server.ts). Real time, unless a test moved it forward through
// POST /api/test/clock (TEST_CLOCK_CONTROL=1, the e2e run's setting), beside the sandbox's clock.
// Nothing else reads it: sessions, leases and retries keep real time.

// On globalThis: the route that moves it and the delivery loop that reads it are bundled apart.
const clock = globalThis as unknown as { scheduleClockOffsetMs?: number };

export function scheduleNow(): Date {
  return new Date(Date.now() + (clock.scheduleClockOffsetMs ?? 0));
}

/** Forward only, as the sandbox's clock moves. */
export function advanceScheduleClock(seconds: number): Date {
  clock.scheduleClockOffsetMs = (clock.scheduleClockOffsetMs ?? 0) + Math.max(0, seconds) * 1000;
  return scheduleNow();
}
