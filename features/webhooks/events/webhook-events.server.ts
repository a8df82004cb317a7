import "server-only";
import { readReferences } from "@/lib/orders/order-references.server";
import { db } from "@/lib/db.server";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { EventFilters } from "@/features/webhooks/events/event-filters";
import { countedPage } from "@/lib/tables/table-page";
import type { EventPage, WebhookEventRow } from "@/features/webhooks/events/event-rows";

export const webhookFieldsSelect = {
  id: true,
  shopId: true,
  domain: true,
  status: true,
  resourceId: true,
  code: true,
  orderId: true,
  deliveryId: true,
  valid: true,
} as const satisfies Prisma.WebhookEventSelect;

export type { WebhookEventRow };

/**
 * States in which an event has its WebhookWork row. processingState is not indexed, so filtering on
 * one also asks for the row: the database starts from that small table.
 */
const QUEUED_STATES: ReadonlySet<string> = new Set(["pending", "processing", "retrying", "dead"]);

/** Beyond it the page says "more than": counting all of a busy shop's events reads every one. */
export const EVENT_COUNT_CAP = 10_000;

export async function listWebhookEvents(shopId: string, filters: EventFilters): Promise<EventPage> {
  const where: Prisma.WebhookEventWhereInput = { shopId };
  if (filters.domain) where.domain = filters.domain;
  if (filters.status) where.status = filters.status;
  if (filters.processing) {
    where.processingState = filters.processing;
    if (QUEUED_STATES.has(filters.processing)) where.work = { isNot: null };
  }
  if (filters.resource) {
    where.OR = [
      { resourceId: filters.resource },
      { orderId: filters.resource },
      { deliveryId: filters.resource },
      { code: filters.resource },
    ];
  }
  if (filters.from || filters.to) {
    where.receivedAt = {
      ...(filters.from ? { gte: new Date(filters.from) } : {}),
      ...(filters.to ? { lte: new Date(filters.to) } : {}),
    };
  }
  const [counted, items] = await Promise.all([
    // In the index's order, so the count stops at the cap instead of sorting every match.
    db.webhookEvent.count({ where, take: EVENT_COUNT_CAP + 1, orderBy: NEWEST_FIRST }),
    eventRows(shopId, where, (filters.page - 1) * filters.size, filters.size + 1),
  ]);
  const rows = items.slice(0, filters.size);
  if (counted <= EVENT_COUNT_CAP) return countedPage(rows, counted, filters);
  return { rows, page: filters.page, size: filters.size, total: null, hasNext: items.length > filters.size };
}

export function recentWebhookEvents(shopId: string, count: number): Promise<WebhookEventRow[]> {
  return eventRows(shopId, { shopId }, 0, count);
}

const NEWEST_FIRST = [{ receivedAt: "desc" }, { id: "desc" }] satisfies Prisma.WebhookEventOrderByWithRelationInput[];

async function eventRows(shopId: string, where: Prisma.WebhookEventWhereInput, skip: number, take: number): Promise<WebhookEventRow[]> {
  // A later page first finds its ids alone, so skipped rows are index entries, not whole rows.
  const page =
    skip === 0
      ? where
      : {
          shopId,
          id: {
            in: (await db.webhookEvent.findMany({ where, orderBy: NEWEST_FIRST, skip, take, select: { id: true } })).map((row) => row.id),
          },
        };
  const rows = await db.webhookEvent.findMany({
    where: page,
    orderBy: NEWEST_FIRST,
    take,
    select: {
      ...webhookFieldsSelect,
      receivedAt: true,
      processingState: true,
      source: true,
      attempts: true,
      duplicateCount: true,
      heldUntil: true,
    },
  });
  const references = await readReferences(
    shopId,
    rows.flatMap((row) => row.orderId ?? []),
  );
  return rows.map(({ shopId: _shopId, ...row }) => ({
    ...row,
    receivedAt: row.receivedAt.toISOString(),
    heldUntil: row.heldUntil?.toISOString() ?? null,
    orderReference: row.orderId === null ? null : (references.get(row.orderId) ?? null),
  }));
}

/** Null when it is not the seller's or does not exist. */
export async function getWebhookEvent(shopId: string, id: string) {
  return db.webhookEvent.findFirst({ where: { id, shopId } });
}

/** Same body, earlier: an identical body after take-up is a new receipt (decision 0004). */
export async function countEarlierReceipts(shopId: string, bodyHash: string, receivedAt: Date) {
  return db.webhookEvent.count({ where: { shopId, bodyHash, receivedAt: { lt: receivedAt } } });
}
