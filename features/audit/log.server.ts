import "server-only";
import { csvStream } from "@/lib/csv/csv-stream";
import type { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db.server";
import { shopLog } from "@/lib/log.server";
import { AUDIT_PAGE_SIZE } from "@/features/audit/filters";
import type { AuditFilters } from "@/features/audit/filters";
import { exportDay } from "@/lib/csv/dialects";
import { startOfDay } from "@/lib/orders/ship-by";
import { auditExportHead, auditExportLines, auditExportTruncatedLine } from "./export-csv";
import type { AuditExportSettings } from "./export-csv";

// The audit log as a manager reads it: a page of entries, the people who made them, and the CSV.
// Entries are written by every feature through the kernel's recordAudit (lib/audit/audit.server.ts).

/** The shop whose log is read: its id and the zone its days are counted in (a CurrentShop fits). */
export interface AuditShop {
  id: string;
  timeZone: string;
}

/** The id is a string: it is a bigint, and travels in URLs. */
export interface AuditRow {
  id: string;
  at: Date;
  personId: string | null;
  personName: string;
  kind: string;
  action: string;
  subject: string | null;
  before: unknown;
  after: unknown;
}

export interface AuditPage {
  rows: AuditRow[];
  /** The "Older entries" cursor (the last row's id), or null on the last page. */
  nextBefore: string | null;
}

const ROW = {
  id: true,
  at: true,
  personId: true,
  personName: true,
  kind: true,
  action: true,
  subject: true,
  before: true,
  after: true,
} as const;

type SelectedRow = Prisma.AuditEntryGetPayload<{ select: typeof ROW }>;

const toRow = (row: SelectedRow): AuditRow => ({ ...row, id: row.id.toString() });

function startOfLocalDay(day: string, timeZone: string, days = 0): Date {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  // Noon UTC falls on `day` or a neighbour in every zone (offsets stay within ±14 h); the shift
  // says which, and startOfDay counts from there.
  const noon = new Date(Date.UTC(year, month - 1, date, 12));
  const shift = Math.round((Date.UTC(year, month - 1, date) - Date.parse(`${exportDay(noon, timeZone)}T00:00:00Z`)) / 86_400_000);
  return startOfDay(noon, timeZone, shift + days);
}

/** The instants `from`–`to` mean: whole days in the shop's zone, both included ([gte, lt)). */
export function auditRange(filters: Pick<AuditFilters, "from" | "to">, timeZone: string): { gte?: Date; lt?: Date } {
  return {
    ...(filters.from ? { gte: startOfLocalDay(filters.from, timeZone) } : {}),
    ...(filters.to ? { lt: startOfLocalDay(filters.to, timeZone, 1) } : {}),
  };
}

function whereOf(shop: AuditShop, filters: AuditFilters, before?: bigint): Prisma.AuditEntryWhereInput {
  const at = auditRange(filters, shop.timeZone);
  return {
    shopId: shop.id,
    ...(filters.person ? { personId: filters.person } : {}),
    ...(filters.kind ? { kind: filters.kind } : {}),
    ...(at.gte || at.lt ? { at } : {}),
    ...(before === undefined ? {} : { id: { lt: before } }),
  };
}

/** Newest first, keyset paging by id: a page never repeats or skips an entry recorded meanwhile. */
export async function listAuditEntries(
  shop: AuditShop,
  filters: AuditFilters,
  page: { before?: string | undefined } = {},
): Promise<AuditPage> {
  const found = await db.auditEntry.findMany({
    where: whereOf(shop, filters, page.before === undefined ? undefined : BigInt(page.before)),
    orderBy: { id: "desc" },
    take: AUDIT_PAGE_SIZE + 1,
    select: ROW,
  });
  const rows = found.slice(0, AUDIT_PAGE_SIZE).map(toRow);
  return { rows, nextBefore: found.length > AUDIT_PAGE_SIZE ? (rows.at(-1)?.id ?? null) : null };
}

export interface AuditPerson {
  id: string;
  name: string;
}

const collator = new Intl.Collator("pt-BR", { sensitivity: "base" });

/** Members who left included, by their current name, else the latest they were recorded with. */
export async function listAuditPeople(shopId: string): Promise<AuditPerson[]> {
  // A loose index scan: one index probe per person, where DISTINCT would read every entry.
  const people = await db.$queryRaw<{ id: string; name: string }[]>`
    WITH RECURSIVE people AS (
      (SELECT "personId" FROM "AuditEntry" WHERE "sellerId" = ${shopId} AND "personId" IS NOT NULL ORDER BY "personId" LIMIT 1)
      UNION ALL
      SELECT (SELECT "personId" FROM "AuditEntry" WHERE "sellerId" = ${shopId} AND "personId" > people."personId" ORDER BY "personId" LIMIT 1)
      FROM people WHERE people."personId" IS NOT NULL
    )
    SELECT people."personId" AS id,
           COALESCE(person."name", (SELECT e."personName" FROM "AuditEntry" e
                                    WHERE e."sellerId" = ${shopId} AND e."personId" = people."personId"
                                    ORDER BY e."at" DESC LIMIT 1)) AS name
    FROM people LEFT JOIN "Person" person ON person."id" = people."personId"
    WHERE people."personId" IS NOT NULL`;
  return people.sort((a, b) => collator.compare(a.name, b.name) || a.id.localeCompare(b.id));
}

/** A year of a busy shop; a bigger file is no spreadsheet anyone opens. Narrower dates export the rest. */
export const AUDIT_EXPORT_LIMIT = 50_000;
const EXPORT_BATCH = 1_000;

/** Newest first, at most `limit`; returns whether entries were left out. */
export async function* exportAuditEntries(
  shop: AuditShop,
  filters: AuditFilters,
  limit = AUDIT_EXPORT_LIMIT,
): AsyncGenerator<AuditRow[], boolean> {
  let before: bigint | undefined;
  let sent = 0;
  for (;;) {
    const wanted = Math.min(EXPORT_BATCH, limit - sent);
    // One more than wanted: whether anything is left after this batch (and after the limit).
    const found = await db.auditEntry.findMany({
      where: whereOf(shop, filters, before),
      orderBy: { id: "desc" },
      take: wanted + 1,
      select: ROW,
    });
    const batch = found.slice(0, wanted);
    if (batch.length > 0) {
      yield batch.map(toRow);
      sent += batch.length;
      before = batch.at(-1)!.id;
    }
    if (found.length <= wanted) return false;
    if (sent >= limit) return true;
  }
}

/** `settings` carries everything from the request: the stream is pulled after the route returned. */
export function auditCsvStream(
  shop: AuditShop,
  filters: AuditFilters,
  settings: AuditExportSettings,
  limit = AUDIT_EXPORT_LIMIT,
): ReadableStream<Uint8Array> {
  return csvStream({
    head: auditExportHead(settings),
    pages: exportAuditEntries(shop, filters, limit),
    lines: (rows) => auditExportLines(rows, settings),
    end: (truncated) => (truncated ? auditExportTruncatedLine(limit, settings) : ""),
    onError: (error) => shopLog(shop.id, { component: "audit" }).error({ err: error }, "audit export stopped"),
  });
}
