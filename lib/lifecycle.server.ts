import "server-only";

// On globalThis: instrumentation and the route handlers are bundled apart, each with its own module copy.
const lifecycle = globalThis as unknown as { instanceStopping?: boolean };

export function markStopping() {
  lifecycle.instanceStopping = true;
}

export function isStopping(): boolean {
  return lifecycle.instanceStopping === true;
}
