// Runs once when a dashboard server process starts.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Webhook processing (with a sweep for what earlier or other instances left), the cross-instance
  // channel, and graceful shutdown on SIGTERM.
  // Notification delivery (issue 41) runs beside processing, and stops with it.
  const [{ startInstance }, { notificationDelivery }] = await Promise.all([
    import("@/features/webhooks/instance.server"),
    import("@/features/notifications"),
  ]);
  startInstance([notificationDelivery]);
}
