import "server-only";
import { closeLiveBus, onWorkAvailable, startListening } from "@/lib/live/bus";
import { log } from "@/lib/log";
import { startMetricsServer, stopMetricsServer } from "@/lib/metrics-server";
import { startReconciliation, stopReconciliation } from "@/lib/sync/reconcile";
import { INSTANCE_ID, startWebhookProcessing, stopWebhookProcessing, sweepSoon } from "@/lib/webhooks/process";

// A processing worker (`npm run worker`, started by `npm start` beside the dashboard): everything
// that happens after an event is acknowledged, off the dashboard's request thread. The receivers of
// every instance queue events for any worker and announce them (WORK_CHANNEL); a worker takes them
// at once (a sweep, FOR UPDATE SKIP LOCKED, so several workers share the work), retries failures
// and reconciles sellers. Any number may run on one database.

let stopping: Promise<void> | null = null;

export async function startWorker(): Promise<void> {
  startWebhookProcessing();
  startReconciliation();
  onWorkAvailable(sweepSoon);
  await startListening();
  // Its own metrics (processing, reconciliation, platform calls): beside a dashboard on one
  // machine it needs its own METRICS_PORT, which `npm start` gives it (scripts/start.ts).
  await startMetricsServer();
  log.info({ component: "worker", instanceId: INSTANCE_ID }, "worker processing");
}

/** Graceful stop: finishes or hands back claimed events, ends reconciliation, closes the channel. */
export function stopWorker(): Promise<void> {
  stopping ??= (async () => {
    await Promise.all([stopWebhookProcessing(), stopReconciliation()]);
    await Promise.all([closeLiveBus(), stopMetricsServer()]);
  })();
  return stopping;
}
