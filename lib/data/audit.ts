import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db";
import { shopLog } from "@/lib/log";
import { AUDIT_ACTIONS, AUDIT_PAGE_SIZE } from "@/lib/audit/kinds";
import type { AuditAction, AuditFilters } from "@/lib/audit/kinds";
import { auditExportHead, auditExportLines, auditExportTruncatedLine } from "@/lib/audit/export-csv";
import type { AuditExportSettings } from "@/lib/audit/export-csv";
import { exportDay } from "@/lib/orders/export-csv";
import { startOfDay } from "@/lib/orders/ship-by";

// The shop's audit log (prisma/schema.prisma AuditEntry): what its people did, recorded by the
// actions that did it, listed newest first with keyset paging, exported as CSV and kept for
// AUDIT_RETENTION_DAYS. Entries keep the person's name as it was: a person who left the shop
// still reads as who they were.

export interface AuditInput {
  sellerId: string;
  /** Who did it. */
  person: { id: string; name: string };
  action: AuditAction;
  /** What it was done to: a SKU code, a price id, a person's name, an event id. */
  subject?: string | null;
  /** JSON-serialisable state before and after the change (omit for things that are not changes). */
  before?: Prisma.InputJsonValue | null;
  after?: Prisma.InputJsonValue | null;
}

/** Records one entry or many (a bulk run's summary and each of its prices) in one statement. */
/**
 * Records entries; `tx`, when given, is the transaction of the change they describe, so the entry
 * and the change commit together or not at all.
 */
export async function recordAudit(entries: AuditInput | AuditInput[], tx: Prisma.TransactionClient = db): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries];
  if (list.length === 0) return;
  await tx.auditEntry.createMany({
    data: list.map((entry) => ({
      sellerId: entry.sellerId,
      personId: entry.person.id,
      personName: entry.person.name,
      kind: AUDIT_ACTIONS[entry.action],
      action: entry.action,
      subject: entry.subject ?? null,
      ...(entry.before == null ? {} : { before: entry.before }),
      ...(entry.after == null ? {} : { after: entry.after }),
    })),
  });
}

/** The shop whose log is read: its id and the zone its days are counted in (a CurrentSeller fits). */
export interface AuditShop {
  id: string;
  timeZone: string;
}

/** An entry as pages and the export read it. The id is a string: it is a bigint, and travels in URLs. */
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

const ROW = { id: true, at: true, personId: true, personName: true, kind: true, action: true, subject: true, before: true, after: true } as const;

type SelectedRow = Prisma.AuditEntryGetPayload<{ select: typeof ROW }>;

const toRow = (row: SelectedRow): AuditRow => ({ ...row, id: row.id.toString() });

/** Midnight at the start of `day` (YYYY-MM-DD), `days` later, in `timeZone`. */
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
    sellerId: shop.id,
    ...(filters.person ? { personId: filters.person } : {}),
    ...(filters.kind ? { kind: filters.kind } : {}),
    ...(at.gte || at.lt ? { at } : {}),
    ...(before === undefined ? {} : { id: { lt: before } }),
  };
}

/**
 * A page of the shop's log, newest first: the entries of `filters` older than the `before` cursor
 * (an entry id, as the "Older entries" link carries it). Keyset paging by id: a page never repeats
 * or skips an entry, however many are recorded meanwhile.
 */
export async function listAuditEntries(shop: AuditShop, filters: AuditFilters, page: { before?: string | undefined } = {}): Promise<AuditPage> {
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

/**
 * Everyone who appears in the shop's log, for the person filter: members who left included, by
 * their current name (else the latest they were recorded with), sorted by name.
 */
export async function listAuditPeople(sellerId: string): Promise<AuditPerson[]> {
  // A loose index scan on (sellerId, personId, at): one index probe per person, not a read of
  // every entry, which DISTINCT would do.
  const people = await db.$queryRaw<{ id: string; name: string }[]>`
    WITH RECURSIVE people AS (
      (SELECT "personId" FROM "AuditEntry" WHERE "sellerId" = ${sellerId} AND "personId" IS NOT NULL ORDER BY "personId" LIMIT 1)
      UNION ALL
      SELECT (SELECT "personId" FROM "AuditEntry" WHERE "sellerId" = ${sellerId} AND "personId" > people."personId" ORDER BY "personId" LIMIT 1)
      FROM people WHERE people."personId" IS NOT NULL
    )
    SELECT people."personId" AS id,
           COALESCE(person."name", (SELECT e."personName" FROM "AuditEntry" e
                                    WHERE e."sellerId" = ${sellerId} AND e."personId" = people."personId"
                                    ORDER BY e."at" DESC LIMIT 1)) AS name
    FROM people LEFT JOIN "Person" person ON person."id" = people."personId"
    WHERE people."personId" IS NOT NULL`;
  return people.sort((a, b) => collator.compare(a.name, b.name) || a.id.localeCompare(b.id));
}

/**
 * An export stops at this many entries (the newest of its filters) and its last line says so: a
 * year of a busy shop fits, and a bigger file is no longer a spreadsheet anyone opens; narrower
 * dates export the rest.
 */
export const AUDIT_EXPORT_LIMIT = 50_000;
/** Entries read per statement while exporting. */
const EXPORT_BATCH = 1_000;

/**
 * The entries of `filters`, newest first, a batch at a time, at most `limit`. Its return value says
 * whether entries were left out.
 */
export async function* exportAuditEntries(shop: AuditShop, filters: AuditFilters, limit = AUDIT_EXPORT_LIMIT): AsyncGenerator<AuditRow[], boolean> {
  let before: bigint | undefined;
  let sent = 0;
  for (;;) {
    const wanted = Math.min(EXPORT_BATCH, limit - sent);
    // One more than wanted: whether anything is left after this batch (and after the limit).
    const found = await db.auditEntry.findMany({ where: whereOf(shop, filters, before), orderBy: { id: "desc" }, take: wanted + 1, select: ROW });
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

/**
 * The export as a CSV stream: the header, then a batch at a time as the browser takes them, and a
 * last line when the limit cut it. `settings` carries everything from the request (language,
 * words): the stream is pulled after the route has returned.
 */
export function auditCsvStream(shop: AuditShop, filters: AuditFilters, settings: AuditExportSettings, limit = AUDIT_EXPORT_LIMIT): ReadableStream<Uint8Array> {
  const batches = exportAuditEntries(shop, filters, limit);
  const encoder = new TextEncoder();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(auditExportHead(settings)));
        return;
      }
      try {
        const next = await batches.next();
        if (!next.done) {
          controller.enqueue(encoder.encode(auditExportLines(next.value, settings)));
          return;
        }
        if (next.value) controller.enqueue(encoder.encode(auditExportTruncatedLine(limit, settings)));
        controller.close();
      } catch (error) {
        shopLog(shop.id, { component: "audit" }).error({ err: error }, "audit export stopped");
        controller.error(error);
      }
    },
    async cancel() {
      await batches.return(false);
    },
  });
}
