// A processing worker of one queue (QUEUE_EVAL_SIDE), as a child of the coordinator, which may
// SIGKILL it mid-work. Ours is what `npm run worker` runs (features/webhooks/worker.server.ts) minus reconciliation:
// the sweep, the lease renewal and the NOTIFY wake-up of features/webhooks/process/process.server.ts, so the work
// measured is the queue's. pg-boss's is the prototype in ./pgboss-pipeline.ts.
import { emit, serve } from "./ipc";
import type { Side } from "./shared";

const side = process.env.QUEUE_EVAL_SIDE as Side;

let stop: () => Promise<void>;
if (side === "ours") {
  const { INSTANCE_ID, startWebhookProcessing, stopWebhookProcessing, sweepSoon } =
    await import("@/features/webhooks/process/process.server");
  const { closeNotifications, onWorkAvailable, startListening } = await import("@/lib/db-notifications.server");
  startWebhookProcessing();
  onWorkAvailable(sweepSoon);
  await startListening();
  stop = async () => {
    await stopWebhookProcessing();
    await closeNotifications();
  };
  emit({ event: "ready", instanceId: INSTANCE_ID });
} else {
  const { startPgBossWorker } = await import("./pgboss-pipeline");
  const worker = await startPgBossWorker(process.env.DATABASE_URL!, (ids) => emit({ event: "taken", ids, at: Date.now() }));
  stop = worker.stop;
  emit({ event: "ready" });
}

serve({
  stop: async () => {
    await stop();
    setImmediate(() => process.exit(0));
    return {};
  },
});
