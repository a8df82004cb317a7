import "server-only";
import { db } from "@/lib/db.server";
import { recordAudit } from "@/lib/audit/audit.server";
import type { AuditInput } from "@/lib/audit/audit.server";

// A module of its own, not sellers.server.ts: the worker and the receiver import that one, and the
// audit log's module brings the export's formatting (next-intl) with it.

/** With its audit entry, in one transaction; the zone it already has changes nothing. */
export async function setShopTimeZone(shopId: string, person: AuditInput["person"], timeZone: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const [current] = await tx.$queryRaw<{ timeZone: string }[]>`SELECT "timeZone" FROM "Seller" WHERE "id" = ${shopId} FOR UPDATE`;
    if (!current || current.timeZone === timeZone) return;
    await tx.shop.update({ where: { id: shopId }, data: { timeZone } });
    await recordAudit({ shopId, person, action: "settings.timeZone", before: { timeZone: current.timeZone }, after: { timeZone } }, tx);
  });
}
