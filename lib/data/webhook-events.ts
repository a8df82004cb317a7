import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { EventFilters } from "@/lib/webhooks/event-filters";
import { countedPage } from "@/lib/tables/table-page";
import type { EventPage, WebhookEventRow } from "@/lib/webhooks/event-rows";

/** The columns of a stored event that say what it is about (see lib/webhooks/parse.ts). */
export const webhookFieldsSelect = {
  id: true,
  sellerId: true,
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
 * The states in which an event has its WebhookWork row (lib/data/webhook-queue.ts): the queue
 * writes the row with the event and deletes it in the statement that records the event processed
 * or skipped. Filtering on one of these states also asks for the row, so the database can start
 * from that small table rather than read every event of the seller: processingState itself is not
 * indexed (prisma/schema.prisma says why).
 */
const QUEUED_STATES: ReadonlySet<string> = new Set(["pending", "processing", "retrying", "dead"]);

/**
 * Matching events are counted up to this many: beyond it the page says "more than" and pages on
 * without a last page. Counting every processed event of a busy shop reads all of them, since
 * processingState is not indexed; nobody pages that far.
 */
export const EVENT_COUNT_CAP = 10_000;

/** One page of a seller's event log, newest first. */
export async function listWebhookEvents(sellerId: string, filters: EventFilters): Promise<EventPage> {
  const where: Prisma.WebhookEventWhereInput = { sellerId };
  if (filters.domain) where.domain = filters.domain;
  if (filters.status) where.status = filters.status;
  if (filters.processing) {
    where.processingState = filters.processing;
    if (QUEUED_STATES.has(filters.processing)) where.work = { isNot: null };
  }
  if (filters.resource) {
    where.OR = [{ resourceId: filters.resource }, { orderId: filters.resource }, { deliveryId: filters.resource }, { code: filters.resource }];
  }
  if (filters.from || filters.to) {
    where.receivedAt = {
      ...(filters.from ? { gte: new Date(filters.from) } : {}),
      ...(filters.to ? { lte: new Date(filters.to) } : {}),
    };
  }
  const [counted, items] = await Promise.all([
    // Newest first, as the page reads: the index on (sellerId, receivedAt, id) then ends the count
    // at the cap, where Prisma's default order (by id) sorts every match first.
    db.webhookEvent.count({ where, take: EVENT_COUNT_CAP + 1, orderBy: NEWEST_FIRST }),
    // One row more than the page: whether a next page exists when the count stopped at the cap.
    eventRows(sellerId, where, (filters.page - 1) * filters.size, filters.size + 1),
  ]);
  const rows = items.slice(0, filters.size);
  if (counted <= EVENT_COUNT_CAP) return countedPage(rows, counted, filters);
  return { rows, page: filters.page, size: filters.size, total: null, hasNext: items.length > filters.size };
}

/** The seller's last `count` events, newest first (the overview's; no count of them all). */
export function recentWebhookEvents(sellerId: string, count: number): Promise<WebhookEventRow[]> {
  return eventRows(sellerId, { sellerId }, 0, count);
}

const NEWEST_FIRST = [{ receivedAt: "desc" }, { id: "desc" }] satisfies Prisma.WebhookEventOrderByWithRelationInput[];

async function eventRows(sellerId: string, where: Prisma.WebhookEventWhereInput, skip: number, take: number): Promise<WebhookEventRow[]> {
  // A later page first finds its ids alone: the rows it skips are then index entries, not whole
  // rows read and thrown away (the index on sellerId, receivedAt, id holds all the ids need).
  const page =
    skip === 0 ? where : { sellerId, id: { in: (await db.webhookEvent.findMany({ where, orderBy: NEWEST_FIRST, skip, take, select: { id: true } })).map((row) => row.id) } };
  const rows = await db.webhookEvent.findMany({
    where: page,
    orderBy: NEWEST_FIRST,
    take,
    select: { ...webhookFieldsSelect, receivedAt: true, processingState: true, source: true, attempts: true, duplicateCount: true, heldUntil: true },
  });
  return rows.map(({ sellerId: _sellerId, ...row }) => ({ ...row, receivedAt: row.receivedAt.toISOString(), heldUntil: row.heldUntil?.toISOString() ?? null }));
}

/** One event of the seller's, whole; null when it is not theirs or does not exist. */
export async function getWebhookEvent(sellerId: string, id: string) {
  return db.webhookEvent.findFirst({ where: { id, sellerId } });
}

/** Earlier receipts of the same notification (same body): an identical body is processed again. */
export async function countEarlierReceipts(sellerId: string, bodyHash: string, receivedAt: Date) {
  return db.webhookEvent.count({ where: { sellerId, bodyHash, receivedAt: { lt: receivedAt } } });
}
