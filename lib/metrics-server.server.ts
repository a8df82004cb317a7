import "server-only";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { env } from "@/lib/env";
import { log } from "@/lib/log.server";
import { metricsRegistry } from "@/lib/metrics.server";

// A port of its own, not a route: the public port never exposes /metrics and a scrape never queues
// behind renders. A taken port is logged, not fatal: sellers matter more than metrics.

export interface MetricsServer {
  host: string;
  port: number;
  close(): Promise<void>;
}

const metricsLog = log.child({ component: "metrics" });

// One per process, although Next.js may load this module once per bundle.
const globalForServer = globalThis as unknown as { dashboardMetricsServer?: Promise<MetricsServer | null> };

/**
 * Starts serving /metrics (once per process; later calls answer the same server). Null when
 * metrics are switched off (METRICS_PORT=off) or the port could not be taken.
 */
export function startMetricsServer(options: { port?: number | null; host?: string } = {}): Promise<MetricsServer | null> {
  globalForServer.dashboardMetricsServer ??= listen(
    options.port === undefined ? env.METRICS_PORT : options.port,
    options.host ?? env.METRICS_HOST,
  );
  return globalForServer.dashboardMetricsServer;
}

/** Stops serving /metrics (shutdown); a later startMetricsServer starts anew. */
export async function stopMetricsServer(): Promise<void> {
  const server = await globalForServer.dashboardMetricsServer;
  globalForServer.dashboardMetricsServer = undefined;
  await server?.close();
}

function createMetricsServer(): Server {
  return createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (path !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found: metrics are at /metrics\n");
      return;
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("Method not allowed\n");
      return;
    }
    metricsRegistry.metrics().then(
      (text) => {
        response.writeHead(200, { "content-type": metricsRegistry.contentType, "cache-control": "no-store" });
        response.end(request.method === "HEAD" ? undefined : text);
      },
      (error: unknown) => {
        metricsLog.error({ err: error }, "could not collect the metrics");
        response.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("Could not collect the metrics\n");
      },
    );
  });
}

function listen(port: number | null, host: string): Promise<MetricsServer | null> {
  if (port === null) return Promise.resolve(null);
  const server = createMetricsServer();
  return new Promise((resolve) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      metricsLog.error(
        { err: error, host, port },
        error.code === "EADDRINUSE"
          ? `metrics not served: ${host}:${port} is in use (another instance on this machine needs its own METRICS_PORT, or METRICS_PORT=off)`
          : `metrics not served on ${host}:${port}`,
      );
      resolve(null);
    });
    server.listen({ port, host }, () => {
      // It must never keep a stopping process alive by itself.
      server.unref();
      const address = server.address() as AddressInfo;
      metricsLog.info({ host, port: address.port }, `metrics on http://${host.includes(":") ? `[${host}]` : host}:${address.port}/metrics`);
      resolve({
        host,
        port: address.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
