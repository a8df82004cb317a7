import "server-only";
import { withPlatform } from "@/lib/platform/platform.server";
import type { PlatformResult } from "@/lib/platform/platform.server";
import { findConnectedShops } from "@/lib/shops/shops.server";
import type { ConnectedShop } from "@/lib/shops/shops.server";
import { confirmSku } from "@/lib/catalogue/sku-confirmation.server";
import type { EventOutcome, QueuedEvent } from "@/features/webhooks/process/queue.server";
import { env } from "@/lib/env";
import { ordersQuery } from "@marketplace/api/list-query";
import { objectIdSchema } from "@marketplace/api/schemas/common";
import type { LiveMessage, ShopLiveMessage } from "@/features/webhooks/live/live-messages";
import { upsertMirrorOrders, upsertMirrorPrice, upsertShopsMirrorOrders } from "@/lib/orders/order-mirror.server";
import type { ShopOrders } from "@/lib/catalogue/product-names.server";
import type { EndpointName, MarketplaceClient } from "@marketplace/api/client";
import { classifyProblem } from "@/features/webhooks/process/retry-policy";
import type { AttemptFailure } from "@/features/webhooks/process/retry-policy";
import { nextAttemptDelaySeconds } from "@/lib/backoff";
import type { RetryPolicy } from "@/lib/backoff";

// What processing one event does (the loop that claims and records them: ./process.server.ts): an
// order or price event reads it from the platform into the mirror, a SKU event confirms the SKU,
// and the outcome says whether to retry. A batch's platform reads are shared (BatchReads).

/** Platform calls in flight per batch; none holds a database connection while it waits. */
export const FETCH_CONCURRENCY = 16;
/** The spec's example reports max_limit 50. */
const ORDER_LIST_CHUNK = 50;
const retryPolicy: RetryPolicy = {
  maxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
  baseSeconds: env.WEBHOOK_RETRY_BASE_SECONDS,
  capSeconds: 30 * 60,
};

/** For tests: fewer attempts, shorter waits. */
export function configureRetryPolicy(policy: Partial<RetryPolicy>) {
  Object.assign(retryPolicy, policy);
}
export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

export async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

/** `items` in consecutive runs of `size` at most, in their order. */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));
}

/** Each order or price is read once per batch however many events name it; orders many per request (`id__in`). */
export class BatchReads {
  private shops = new Map<string, ConnectedShop>();
  private readonly reads = new Map<string, Promise<PlatformResult<unknown>>>();
  private readonly orders = new Map<string, { ok: true } | { ok: false; failure: AttemptFailure }>();

  async loadShops(events: readonly QueuedEvent[]) {
    const ids = [...new Set(events.filter((event) => event.valid && callsPlatform(event)).map((event) => event.sellerId))];
    if (ids.length === 0) return;
    this.shops = await findConnectedShops(ids);
  }

  /** An event of a shop no longer connected fails for good. */
  platform<T>(shopId: string, endpoint: EndpointName, call: (client: MarketplaceClient) => Promise<T>): Promise<PlatformResult<T>> {
    const shop = this.shops.get(shopId);
    if (!shop) throw new AttemptFailed({ retry: false, error: "The seller is no longer connected: connect again, then process again" });
    return withPlatform(shop.shop, endpoint, call, { accessToken: shop.accessToken });
  }

  once<T>(key: string, read: () => Promise<PlatformResult<T>>): Promise<PlatformResult<T>> {
    let result = this.reads.get(key);
    if (!result) this.reads.set(key, (result = read()));
    return result as Promise<PlatformResult<T>>;
  }

  /** Undefined when not fetched ahead: then fetch it alone. */
  prefetched(shopId: string, orderId: string) {
    return this.orders.get(`${shopId}:${orderId}`);
  }

  async prefetchOrders(events: readonly QueuedEvent[]) {
    const wanted = new Map<string, Set<string>>();
    for (const event of events) {
      if (!event.valid || !event.domain?.startsWith("order.") || !event.orderId || !objectIdSchema.safeParse(event.orderId).success)
        continue;
      if (!this.shops.has(event.sellerId)) continue; // each event then says why
      let ids = wanted.get(event.sellerId);
      if (!ids) wanted.set(event.sellerId, (ids = new Set()));
      ids.add(event.orderId);
    }
    const requests = [...wanted].flatMap(([shopId, ids]) =>
      chunksOf([...ids], ORDER_LIST_CHUNK).map((chunk) => ({ sellerId: shopId, ids: chunk })),
    );
    const fetched: ShopOrders[] = [];
    await eachLimited(requests, FETCH_CONCURRENCY, async ({ sellerId: shopId, ids }) => {
      const result = await this.platform(shopId, "listOrders", (client) =>
        client.listOrderSummaries(ordersQuery({ ids, limit: ids.length })),
      );
      if (result.ok) fetched.push({ sellerId: shopId, orders: result.data.items });
      else {
        const failure = classifyProblem(result.problem);
        for (const id of ids) this.orders.set(`${shopId}:${id}`, { ok: false, failure });
      }
    });
    // An order the list left out (a page smaller than asked, say) is fetched alone later.
    let outcome: { ok: true } | { ok: false; failure: AttemptFailure } = { ok: true };
    try {
      // A notification said so: an order new to the mirror is news (issue 41).
      await upsertShopsMirrorOrders(fetched, { tellNew: true });
    } catch (error) {
      outcome = { ok: false, failure: { retry: true, error: `The order mirror could not be written: ${errorText(error)}` } };
    }
    for (const { sellerId: shopId, orders } of fetched) for (const order of orders) this.orders.set(`${shopId}:${order.id}`, outcome);
  }
}

const callsPlatform = (event: QueuedEvent) =>
  (event.domain?.startsWith("order.") && Boolean(event.orderId)) || (event.domain === "portfolio.price" && Boolean(event.resourceId));

class AttemptFailed extends Error {
  constructor(readonly failure: AttemptFailure) {
    super(failure.error);
  }
}

function fromPlatform<T>(result: PlatformResult<T>): T {
  if (result.ok) return result.data;
  throw new AttemptFailed(classifyProblem(result.problem));
}

/** Idempotent: processing an event again leads to the same state (the mirror only moves forward). */
export async function applyEvent(
  event: QueuedEvent,
  reads: BatchReads,
): Promise<{ outcome: EventOutcome; message: ShopLiveMessage | null }> {
  const { sellerId: shopId, domain, status } = event;
  const eventId = event.id;
  let message: LiveMessage = { type: "event", eventId, domain, status };
  if (!event.valid) return { outcome: { id: eventId, state: "skipped" }, message: { sellerId: shopId, message } };
  try {
    if (domain === "portfolio.sku" && event.resourceId) {
      await confirmSku(shopId, event.resourceId);
      message = { type: "sku", eventId, status: status ?? "created", skuId: event.resourceId, code: event.code };
    } else if (domain?.startsWith("order.") && event.orderId) {
      const orderId = event.orderId;
      const prefetched = reads.prefetched(shopId, orderId);
      if (prefetched && !prefetched.ok) throw new AttemptFailed(prefetched.failure);
      if (!prefetched) {
        const order = fromPlatform(
          await reads.once(`order:${shopId}:${orderId}`, () =>
            reads.platform(shopId, "getOrder", (client) => client.getOrderSummary(orderId)),
          ),
        );
        await upsertMirrorOrders(shopId, [order], { tellNew: true });
      }
      message = { type: "order", eventId, domain, status: status ?? "", orderId, deliveryId: event.deliveryId };
    } else if (domain === "portfolio.price" && event.resourceId) {
      const priceId = event.resourceId;
      const price = fromPlatform(
        await reads.once(`price:${shopId}:${priceId}`, () => reads.platform(shopId, "getPrice", (client) => client.getPrice(priceId))),
      );
      await upsertMirrorPrice(shopId, price);
      message = { type: "price", eventId, status: status ?? "", priceId, sku: event.code };
    }
    return { outcome: { id: eventId, state: "processed" }, message: { sellerId: shopId, message } };
  } catch (error) {
    // Anything not judged by the policy (the database failing mid-way, a bug) is worth a retry.
    const failure: AttemptFailure = error instanceof AttemptFailed ? error.failure : { retry: true, error: errorText(error) };
    const attempt = (event.attempts ?? 0) + 1;
    const delay = failure.retry ? nextAttemptDelaySeconds(retryPolicy, attempt, failure.retryAfterSeconds) : null;
    const outcome: EventOutcome =
      delay === null
        ? { id: eventId, state: "dead", error: `${failure.error} (after ${attempt} attempt${attempt === 1 ? "" : "s"})` }
        : { id: eventId, state: "retrying", error: failure.error, retryInSeconds: delay };
    return { outcome, message: { sellerId: shopId, message } };
  }
}
