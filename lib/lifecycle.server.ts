import "server-only";

// On globalThis: instrumentation and the route handlers are bundled apart, each with its own module copy.
const lifecycle = globalThis as unknown as { instanceStopping?: boolean };

export function markStopping() {
  lifecycle.instanceStopping = true;
}

export function isStopping(): boolean {
  return lifecycle.instanceStopping === true;
}

/**
 * Background work an instance runs beside webhook processing (notification delivery, issue 41),
 * handed in by the process that starts it (instrumentation.ts, scripts/worker.ts): its stop is
 * awaited with the rest on shutdown.
 */
export interface BackgroundService {
  start(): void;
  stop(): Promise<void>;
}
