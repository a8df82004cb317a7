"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useRef } from "react";
import { toast } from "sonner";
import type { LiveMessage, LiveMessageType } from "@/features/webhooks/live/live-messages";
import { shopPath } from "@/lib/shops/paths";
import { eventWord } from "@/lib/words/event-words";
import { queryKeys } from "@/lib/tables/query-keys";
import type { QueryResource } from "@/lib/tables/query-keys";

/** The tables each type of message may change, beside the event log's. */
const REFRESHED = {
  // The bell's count too: a new order is a notification (issue 41).
  order: ["orders", "shipping", "inbox"],
  price: ["prices"],
  sku: ["skus"],
  event: [],
} as const satisfies Record<LiveMessageType, readonly QueryResource[]>;

/**
 * Listens to the seller's live stream: toasts new orders and refreshes the React Query tables an
 * event affects, without a reload. Query keys start with the resource name ("orders", "prices",
 * "skus", "events"), so one invalidation refreshes every page of that table.
 */
export function LiveUpdates({ shopId, after }: { shopId: string; after: string }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  // Read through a ref so that navigating (which may hand out a new router object) does not close
  // and reopen the stream, dropping messages in between.
  const routerRef = useRef(router);
  // The same for the words: switching the language must not reopen the stream either.
  const t = useTranslations("webhooks.live");
  const eventWords = useTranslations("words");
  const wordsRef = useRef({ t, eventWords });
  useEffect(() => {
    routerRef.current = router;
    wordsRef.current = { t, eventWords };
  }, [router, t, eventWords]);
  // Only the first connection needs it (reconnects send Last-Event-ID): a refreshed layout must
  // not reopen the stream.
  const afterRef = useRef(after);
  const overviewPath = shopPath(shopId);

  useEffect(() => {
    // `after`: the newest message when the page was rendered; the stream replays what came since.
    const source = new EventSource(`/api/s/${encodeURIComponent(shopId)}/live?after=${encodeURIComponent(afterRef.current)}`);
    // After a reconnect the server replays from the last id this page saw, and may re-send a few
    // it already handled (features/webhooks/live/live.server.ts): each id is acted on once.
    const handled = new Set<string>();
    // The messages are read through their zod schema (features/webhooks/live/live-messages.ts), whose
    // code (about 23 kB gzipped) is fetched with the first message rather than with every page: most
    // page loads never receive one (bench:mobile, issue 40). Messages are handled one after another,
    // in the order they came, while it loads.
    let reader: Promise<(data: string) => LiveMessage | null> | null = null;
    let handling = Promise.resolve();
    /** Calls `handle` with the event's message if it is one this page has not handled yet, of the type its name says. */
    const onMessage =
      <T extends LiveMessageType>(type: T, handle: (message: Extract<LiveMessage, { type: T }>) => void) =>
      (event: Event) => {
        const { lastEventId, data } = event as MessageEvent<string>;
        if (lastEventId) {
          if (handled.has(lastEventId)) return;
          handled.add(lastEventId);
          if (handled.size > 1_000) handled.delete(handled.values().next().value!);
        }
        reader ??= import("@/features/webhooks/live/live-messages").then((module) => module.readLiveMessage);
        handling = handling
          .then(async () => {
            let read: (data: string) => LiveMessage | null;
            try {
              read = await reader!;
            } catch {
              // The reader could not be fetched (the network dropped): fetched again with the next
              // message; this one's tables are refreshed anyway, without its toast.
              reader = null;
              refresh(...REFRESHED[type]);
              return;
            }
            const message = read(data);
            if (message?.type === type) handle(message as Extract<LiveMessage, { type: T }>);
          })
          // A mistake in a handler must not stop the messages after it.
          .catch(reportError);
      };

    // Every message is one processed webhook event: the event log refreshes on each, and the
    // table of the resource it concerns too. The overview (the home page, rendered on the server)
    // is rendered again, at most once a second in a burst.
    let overviewTimer: ReturnType<typeof setTimeout> | null = null;
    const refresh = (...resources: QueryResource[]) => {
      for (const resource of ["events", ...resources] as const) void queryClient.invalidateQueries({ queryKey: queryKeys[resource].all });
      if (window.location.pathname === overviewPath && !overviewTimer) {
        overviewTimer = setTimeout(() => {
          overviewTimer = null;
          routerRef.current.refresh();
        }, 1_000);
      }
    };
    source.addEventListener(
      "order",
      onMessage("order", (message) => {
        refresh(...REFRESHED.order);
        if (message.domain === "order.order") {
          const { t: words, eventWords } = wordsRef.current;
          const { orderId } = message;
          // The event's words and a way to the order, never the platform's id (issue 40); a change no
          // notification told, found by reconciliation (features/webhooks/sync/reconcile.server.ts), says so.
          toast(eventWord(eventWords, message.domain, message.status), {
            ...(message.source === "reconciliation" ? { description: words("orderReconciled") } : {}),
            action: { label: words("open"), onClick: () => routerRef.current.push(shopPath(shopId, `/orders/${orderId}`)) },
          });
        }
      }),
    );
    for (const type of ["price", "sku", "event"] as const)
      source.addEventListener(
        type,
        onMessage(type, () => refresh(...REFRESHED[type])),
      );

    return () => {
      source.close();
      if (overviewTimer) clearTimeout(overviewTimer);
    };
  }, [queryClient, shopId, overviewPath]);

  return null;
}
