import { getCurrentSeller } from "@/lib/auth/session";
import { subscribeToSeller } from "@/lib/live/bus";

// Server-sent events for the signed-in seller's open pages: one stream per tab, fed by the
// webhook processing in this process. EventSource reconnects by itself if the stream drops.
export async function GET(request: Request) {
  const seller = await getCurrentSeller();
  if (!seller) return Response.json({ error: "Not signed in" }, { status: 401 });

  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (chunk: string) => {
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          cleanup();
        }
      };
      send("retry: 3000\n: connected\n\n");
      const unsubscribe = subscribeToSeller(seller.id, (message) => {
        send(`event: ${message.type}\ndata: ${JSON.stringify(message)}\n\n`);
      });
      // A comment line every 20 s keeps proxies from closing an idle stream.
      const heartbeat = setInterval(() => send(": ping\n\n"), 20_000);
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
      request.signal.addEventListener("abort", () => {
        cleanup();
        try {
          controller.close();
        } catch {}
      });
    },
    cancel() {
      cleanup();
    },
  });

  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}
