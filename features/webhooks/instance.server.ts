import "server-only";
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { forgetWebhookReceivers } from "@/features/webhooks/receive/receivers.server";
import { env } from "@/lib/env";
import { markStopping } from "@/lib/lifecycle.server";
import type { BackgroundService } from "@/lib/lifecycle.server";
import { closeNotifications, onReceiverChanged, startListening } from "@/lib/db-notifications.server";
import { startMetricsServer, stopMetricsServer } from "@/lib/metrics-server.server";
import { startReconciliation, stopReconciliation } from "@/features/webhooks/sync/reconcile.server";
import { startWebhookProcessing, stopWebhookProcessing } from "@/features/webhooks/process/process.server";

// Any number of instances may share the database: nothing here assumes this is the only one.

let started = false;
let services: readonly BackgroundService[] = [];

/** `background`: what else this instance runs with its processing (notification delivery). */
export function startInstance(background: readonly BackgroundService[] = []) {
  if (started) return;
  started = true;
  // With WEBHOOK_PROCESSING=worker, `npm run worker` processes (and runs the background services);
  // this process only receives and serves.
  if (env.WEBHOOK_PROCESSING === "inline") {
    startWebhookProcessing();
    startReconciliation();
    services = background;
    for (const service of services) service.start();
  }
  onReceiverChanged(forgetWebhookReceivers);
  void startListening();
  // A metrics port in use is logged, never fatal.
  void startMetricsServer();
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void shutdown());
}

let shutdownDone: Promise<void> | null = null;

/**
 * Hands back claimed work before ending the live streams (browsers catch up elsewhere by
 * Last-Event-ID). Next's own process.exit on the same signal is held until then, 15 s at most.
 */
function shutdown(): Promise<void> {
  if (shutdownDone) return shutdownDone;
  // Readiness answers 503 from now on, sending traffic elsewhere.
  markStopping();
  closeConnectionsAfterResponse();
  const exit = process.exit.bind(process);
  shutdownDone = (async () => {
    try {
      await Promise.all([stopWebhookProcessing(), stopReconciliation(), ...services.map((service) => service.stop())]);
    } finally {
      await Promise.all([closeNotifications(), stopMetricsServer()]);
    }
  })();
  const deadline = new Promise<void>((resolve) => setTimeout(resolve, 15_000).unref());
  process.exit = ((code?: number) => {
    void Promise.race([shutdownDone, deadline]).finally(() => exit(code));
  }) as typeof process.exit;
  return shutdownDone;
}

/**
 * A kept-alive client that never idles (a proxy's pool, a poller) would keep a stopping instance
 * serving: every response now says `Connection: close`, so its next request goes elsewhere.
 */
function closeConnectionsAfterResponse() {
  subscribe("http.server.request.start", (message) => {
    const { response, server } = message as { response: ServerResponse; server: Server; request: IncomingMessage };
    if (!response.headersSent) response.setHeader("connection", "close");
    server.closeIdleConnections();
  });
}
