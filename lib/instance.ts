import "server-only";
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { forgetWebhookReceivers } from "@/lib/data/sellers";
import { env } from "@/lib/env";
import { markStopping } from "@/lib/lifecycle";
import { closeLiveBus, onReceiverChanged, startListening } from "@/lib/live/bus";
import { startMetricsServer, stopMetricsServer } from "@/lib/metrics-server";
import { startReconciliation, stopReconciliation } from "@/lib/sync/reconcile";
import { startWebhookProcessing, stopWebhookProcessing } from "@/lib/webhooks/process";

// The life of one dashboard instance (a `next start` or `next dev` process), started by
// instrumentation.ts. Any number of instances may share the database: nothing here assumes it is
// the only one.

let started = false;

export function startInstance() {
  if (started) return;
  started = true;
  // With WEBHOOK_PROCESSING=worker, `npm run worker` processes (lib/worker.ts): this process only
  // receives, serves pages and feeds live streams.
  if (env.WEBHOOK_PROCESSING === "inline") {
    startWebhookProcessing();
    startReconciliation();
  }
  onReceiverChanged(forgetWebhookReceivers);
  void startListening();
  // Prometheus metrics on their own port (METRICS_PORT); a port in use is logged, never fatal.
  void startMetricsServer();
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void shutdown());
}

let shutdownDone: Promise<void> | null = null;

/**
 * Graceful shutdown (SIGTERM from an orchestrator, Ctrl-C): stop taking work, finish or hand back
 * claimed work, then end the live streams (browsers reconnect, through the load balancer, to
 * another instance and catch up by Last-Event-ID).
 *
 * Next.js handles the same signal: it stops accepting connections, waits for open requests (live
 * streams included, which is why they are closed last) and calls process.exit. That exit is held
 * until this work is done, or 15 s at most, so hand-backs are never cut off halfway.
 */
function shutdown(): Promise<void> {
  if (shutdownDone) return shutdownDone;
  // Readiness answers 503 from now on: a request on a connection still open is told to go elsewhere.
  markStopping();
  closeConnectionsAfterResponse();
  const exit = process.exit.bind(process);
  shutdownDone = (async () => {
    try {
      await Promise.all([stopWebhookProcessing(), stopReconciliation()]);
    } finally {
      await Promise.all([closeLiveBus(), stopMetricsServer()]);
    }
  })();
  const deadline = new Promise<void>((resolve) => setTimeout(resolve, 15_000).unref());
  process.exit = ((code?: number) => {
    void Promise.race([shutdownDone, deadline]).finally(() => exit(code));
  }) as typeof process.exit;
  return shutdownDone;
}

/**
 * Next.js stops accepting connections on SIGTERM and closes those idle at that moment, then waits
 * for the rest to end. A client that keeps its connection alive and sends a request every few
 * seconds (a proxy's pooled upstream connection, a poller) is never idle at the right moment and
 * kept a stopping instance answering indefinitely (measured: still answering 40 s after SIGTERM at
 * one request per 250 ms). From now on every response says `Connection: close`, so each open
 * connection ends after its current request, and the client opens its next one elsewhere.
 */
function closeConnectionsAfterResponse() {
  subscribe("http.server.request.start", (message) => {
    const { response, server } = message as { response: ServerResponse; server: Server; request: IncomingMessage };
    if (!response.headersSent) response.setHeader("connection", "close");
    server.closeIdleConnections();
  });
}
