// `npm run worker`: a processing worker (features/webhooks/worker.server.ts). Runs with the react-server condition, as
// the dashboard's server code does under Next.js (its modules import "server-only").
import { startWorker, stopWorker } from "../features/webhooks/worker.server";
// Directly, not through the feature's entry: that also carries route handlers, which load Auth.js.
import { notificationDelivery } from "../features/notifications/delivery.server";

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    void stopWorker().then(() => process.exit(0));
  });
}
await startWorker([notificationDelivery]);
