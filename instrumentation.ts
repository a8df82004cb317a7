// Runs once when a dashboard server process starts.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Webhook events committed but not processed when the previous process stopped.
  const { resumePendingEvents } = await import("@/lib/webhooks/process");
  await resumePendingEvents().catch((error: unknown) => {
    console.error(`[webhooks] could not resume pending events: ${error instanceof Error ? error.message : String(error)}`);
  });
}
