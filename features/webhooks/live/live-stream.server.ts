import "server-only";
import { can } from "@/lib/people/roles";
import { shopAccessOf } from "@/lib/auth/session.server";
import type { SessionClaims } from "@/lib/auth/session.server";
import { onReceiverChanged, onSessionsChanged } from "@/lib/db-notifications.server";
import { latestLiveMessageId, replayLiveMessages, subscribeToShop } from "@/features/webhooks/live/live.server";
import { liveFrame, mayReceiveLiveMessage } from "@/features/webhooks/live/live-messages";
import type { LiveEnvelope, LiveMessageType } from "@/features/webhooks/live/live-messages";
import { shopLog } from "@/lib/log.server";
import { metrics } from "@/lib/metrics.server";

const LAST_EVENT_ID = /^\d{1,19}$/;

/**
 * The shop's live stream for the session's person (app/api/s/[shopId]/live/route.ts): 401 signed
 * out, 403 without the shop, else only the message types the role may see (LIVE_MESSAGE_CAPABILITY).
 * The role is read once per connection, so the stream ends when it changes and the browser's
 * reconnect gets the new role's types.
 */
export async function openShopLiveStream(claims: SessionClaims | null | undefined, shopId: string, request: Request): Promise<Response> {
  const access = await shopAccessOf(claims, shopId);
  if (access === "signed-out") return Response.json({ error: "Not signed in" }, { status: 401 });
  if (typeof access === "string" || !can(access.role, "overview.view"))
    return Response.json({ error: "You do not have access to this" }, { status: 403 });
  const { role } = access;
  return liveStreamResponse(shopId, request, {
    sessionValid: async () => {
      const now = await shopAccessOf(claims, shopId);
      return typeof now !== "string" && now.role === role;
    },
    personId: access.person.id,
    receives: (type) => mayReceiveLiveMessage(role, type),
  });
}

export interface LiveStreamOptions {
  /** Asked again on every access change of the shop or the person, and on every heartbeat. */
  sessionValid?: () => Promise<boolean>;
  personId?: string;
  /** The types this connection is sent, live and replayed; none when not said. */
  receives?: (type: LiveMessageType) => boolean;
}

/**
 * Replays what a reconnecting EventSource missed (Last-Event-ID), then goes live. Ends when the
 * session loses the shop (`sessionValid`). Callers other than openShopLiveStream are tests.
 */
export async function liveStreamResponse(shopId: string, request: Request, options: LiveStreamOptions = {}): Promise<Response> {
  const { sessionValid = async () => true, personId, receives = () => false } = options;
  // `?after=` is the newest id when the page was rendered, so an event between render and stream is not missed.
  const header = request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("after");
  const lastEventId = header && LAST_EVENT_ID.test(header) ? header : null;
  // So a first reconnect can catch up even if nothing was received before dropping.
  const startId = lastEventId ?? (await latestLiveMessageId());

  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      let lastSent = startId;
      // Until the replay is written, live messages wait here so the order stays by id.
      let buffered: LiveEnvelope[] | null = [];
      const sentIds = new Set<string>();

      const write = (chunk: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          cleanup();
        }
      };
      const send = (envelope: LiveEnvelope) => {
        if (sentIds.has(envelope.id)) return;
        sentIds.add(envelope.id);
        if (sentIds.size > 2_000) sentIds.delete(sentIds.values().next().value!);
        if (BigInt(envelope.id) > BigInt(lastSent)) lastSent = envelope.id;
        // A type the role may not see counts as passed, so a catch-up does not read it again.
        if (receives(envelope.message.type)) write(liveFrame(envelope));
      };
      const catchUp = async (afterId: string) => {
        try {
          for (const envelope of await replayLiveMessages(shopId, afterId)) send(envelope);
        } catch (error) {
          shopLog(shopId, { component: "live" }).error({ err: error }, "replay failed");
        }
      };

      const end = () => {
        cleanup();
        try {
          controller.close();
        } catch {}
      };

      metrics.liveStreams.inc();
      write(`retry: 3000\nid: ${startId}\n: connected\n\n`);
      const subscription = subscribeToShop(shopId, {
        onMessage: (envelope) => (buffered ? buffered.push(envelope) : send(envelope)),
        onResync: () => void catchUp(lastSent),
        onClose: () => end(),
      });
      void (async () => {
        if (lastEventId) await catchUp(lastEventId);
        const pending = buffered ?? [];
        buffered = null;
        for (const envelope of pending) send(envelope);
      })();

      const endUnlessValid = () => {
        void sessionValid().then(
          (valid) => valid || end(),
          () => {},
        );
      };
      const stopWatchingShop = onReceiverChanged((changed) => {
        if (changed === shopId) endUnlessValid();
      });
      const stopWatchingPerson = onSessionsChanged((changed) => {
        if (changed === personId) endUnlessValid();
      });
      // A comment line every 20 s keeps proxies from closing an idle stream.
      const heartbeat = setInterval(() => {
        write(": ping\n\n");
        endUnlessValid();
      }, 20_000);
      cleanup = () => {
        // Several ways lead here (the browser leaves, the instance stops, the session ends): once counts.
        if (!closed) metrics.liveStreams.dec();
        closed = true;
        clearInterval(heartbeat);
        subscription.unsubscribe();
        stopWatchingShop();
        stopWatchingPerson();
      };
      request.signal.addEventListener("abort", end);
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
