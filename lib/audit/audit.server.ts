import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db.server";
import { AUDIT_ACTIONS } from "@/lib/audit/kinds";
import type { AuditAction } from "@/lib/audit/kinds";

// Entries keep the person's name as it was, so someone who left still reads as who they were.

export interface AuditInput {
  shopId: string;
  person: { id: string; name: string };
  action: AuditAction;
  /** What it was done to: a SKU code, a price id, a person's name, an event id. */
  subject?: string | null;
  /** Omitted for things that are not changes. */
  before?: Prisma.InputJsonValue | null;
  after?: Prisma.InputJsonValue | null;
}

/** One statement. Pass the change's transaction as `tx` so the entry and the change commit together. */
export async function recordAudit(entries: AuditInput | AuditInput[], tx: Prisma.TransactionClient = db): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries];
  if (list.length === 0) return;
  await tx.auditEntry.createMany({
    data: list.map((entry) => ({
      shopId: entry.shopId,
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
