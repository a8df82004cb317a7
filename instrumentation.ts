// Runs once when a dashboard server process starts.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Webhook processing (with a sweep for what earlier or other instances left), the cross-instance
  // channel, and graceful shutdown on SIGTERM.
  const { startInstance } = await import("@/features/webhooks/instance.server");
  startInstance();
}
