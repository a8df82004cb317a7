import "server-only";
import { closeNotifications, onWorkAvailable, startListening } from "@/lib/db-notifications.server";
import { log } from "@/lib/log.server";
import { startMetricsServer, stopMetricsServer } from "@/lib/metrics-server.server";
import { startReconciliation, stopReconciliation } from "@/features/webhooks/sync/reconcile.server";
import type { BackgroundService } from "@/lib/lifecycle.server";
import { INSTANCE_ID, startWebhookProcessing, stopWebhookProcessing, sweepSoon } from "@/features/webhooks/process/process.server";

// `npm run worker`: processing, retries, reconciliation and notification sending off the dashboard's request thread. Any
// number may run on one database: they share work through SKIP LOCKED sweeps.

let stopping: Promise<void> | null = null;
let services: readonly BackgroundService[] = [];

/** `background`: what else the worker runs with processing (notification delivery). */
export async function startWorker(background: readonly BackgroundService[] = []): Promise<void> {
  startWebhookProcessing();
  startReconciliation();
  services = background;
  for (const service of services) service.start();
  onWorkAvailable(sweepSoon);
  await startListening();
  // Beside a dashboard on one machine it needs its own METRICS_PORT (scripts/start.ts gives it).
  await startMetricsServer();
  log.info({ component: "worker", instanceId: INSTANCE_ID }, "worker processing");
}

/** Graceful stop: finishes or hands back claimed events, ends reconciliation, closes the channel. */
export function stopWorker(): Promise<void> {
  stopping ??= (async () => {
    await Promise.all([stopWebhookProcessing(), stopReconciliation(), ...services.map((service) => service.stop())]);
    await Promise.all([closeNotifications(), stopMetricsServer()]);
  })();
  return stopping;
}
