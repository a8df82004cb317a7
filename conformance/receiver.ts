// The local webhook receiver of the round trip: it keeps every request's raw bytes (the
// signature is over the body as sent, never over re-serialized JSON) and answers 200 at once
// (spec: Receiver guidance, "respond quickly").
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedNotification {
  receivedAt: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface WebhookReceiver {
  /** Where this machine reaches it. */
  url: string;
  port: number;
  received: readonly ReceivedNotification[];
  /** The first notification, received or to come, that `matches`; null after `timeoutMs` or on abort. */
  waitFor: (
    matches: (notification: ReceivedNotification) => boolean,
    timeoutMs: number,
    signal?: AbortSignal,
  ) => Promise<ReceivedNotification | null>;
  close: () => Promise<void>;
}

export const RECEIVER_PATH = "/conformance/webhook";

/** No notification of the spec comes near it; a larger body is refused rather than held. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Listens on 127.0.0.1 only: the platform reaches it on this machine, or through a tunnel (--callback-url). */
export async function startWebhookReceiver(port: number): Promise<WebhookReceiver> {
  const received: ReceivedNotification[] = [];
  const waiters = new Set<(notification: ReceivedNotification) => void>();

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        response.writeHead(413).end();
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => {
      if (size > MAX_BODY_BYTES) return;
      const notification: ReceivedNotification = {
        receivedAt: Date.now(),
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      received.push(notification);
      response.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
      for (const waiter of waiters) waiter(notification);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${actualPort}${RECEIVER_PATH}`,
    port: actualPort,
    received,
    waitFor: (matches, timeoutMs, signal) => {
      const already = received.find(matches);
      if (already) return Promise.resolve(already);
      return new Promise((resolve) => {
        const finish = (value: ReceivedNotification | null) => {
          clearTimeout(timer);
          waiters.delete(waiter);
          signal?.removeEventListener("abort", onAbort);
          resolve(value);
        };
        const waiter = (notification: ReceivedNotification) => {
          if (matches(notification)) finish(notification);
        };
        const onAbort = () => finish(null);
        const timer = setTimeout(() => finish(null), timeoutMs);
        waiters.add(waiter);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
