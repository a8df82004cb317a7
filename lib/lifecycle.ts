import "server-only";

// Whether this process is shutting down (SIGTERM or SIGINT, lib/instance.ts). Kept on globalThis:
// instrumentation, which handles the signal, and the route handlers are bundled apart, and each
// bundle has its own copy of a module's variables.
const lifecycle = globalThis as unknown as { instanceStopping?: boolean };

export function markStopping() {
  lifecycle.instanceStopping = true;
}

export function isStopping(): boolean {
  return lifecycle.instanceStopping === true;
}
