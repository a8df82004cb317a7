import "server-only";
import { db } from "@/lib/db.server";
import { priceKey } from "@/features/prices/prices.server";
import type { KnownPrice } from "@/features/prices/prices.server";
import { recordAudit } from "@/lib/audit/audit.server";
import type { AuditInput } from "@/lib/audit/audit.server";
import { confirmedPastGuard } from "@/features/prices/guard/price-guard";
import type { GuardReason } from "@/features/prices/guard/price-guard";

interface BatchRow {
  line: number;
  sku: string;
  type: string;
  value: number;
  currency: string;
  normalizer: number;
}

/**
 * One entry per price applied, and one for the run whose counts every batch adds to, so the log
 * shows the run once. The run id comes from the browser: only the person's own entry of that id
 * is added to, so nobody's batches fold into another member's run. The run's entry is searched in
 * two days of price entries, not the whole log. An undo's entries name the run they undo
 * (`undoOf`), and its skipped rows (prices changed since) are counted as such.
 */
export async function recordBulkRun(
  shopId: string,
  person: AuditInput["person"],
  run: { id: string; source: "csv" | "percent" | "undo"; undoOf?: string },
  /** What the platform held just before each row was sent (by priceKey); null where it had no price. */
  before: ReadonlyMap<string, KnownPrice | null>,
  batch: readonly BatchRow[],
  results: readonly { line: number; outcome: "applied" | "rejected" | "failed" | "skipped" }[],
  /** By line: what the person confirmed past the price guard. */
  confirmedPast: ReadonlyMap<number, readonly GuardReason[]> = new Map(),
): Promise<void> {
  if (results.length === 0) return;
  const rows = new Map(batch.map((row) => [row.line, row]));
  const applied = results.flatMap((result) => (result.outcome === "applied" && rows.has(result.line) ? [rows.get(result.line)!] : []));
  const sent = applied.length;
  const skipped = results.filter((result) => result.outcome === "skipped").length;
  const failed = results.length - sent - skipped;
  const undoOf = run.undoOf === undefined ? {} : { undoOf: run.undoOf };
  const updated = await db.$executeRaw`
    UPDATE "AuditEntry"
    SET "after" = jsonb_set(jsonb_set(jsonb_set("after",
          '{sent}', to_jsonb(("after"->>'sent')::int + ${sent})),
          '{failed}', to_jsonb(("after"->>'failed')::int + ${failed})),
          '{skipped}', to_jsonb(COALESCE(("after"->>'skipped')::int, 0) + ${skipped}))
    WHERE "sellerId" = ${shopId} AND "kind" = 'price' AND "at" > now() - interval '2 days' AND "action" = 'price.bulk' AND "after"->>'run' = ${run.id}
      AND "personId" = ${person.id}`;
  await recordAudit([
    ...(updated === 0
      ? [{ shopId, person, action: "price.bulk" as const, after: { run: run.id, source: run.source, ...undoOf, sent, failed, skipped } }]
      : []),
    ...applied.map((row) => ({
      shopId,
      person,
      action: "price.set" as const,
      subject: row.sku,
      before: before.get(priceKey(row.sku, row.type)) ?? null,
      after: {
        type: row.type,
        value: row.value,
        currency: row.currency,
        normalizer: row.normalizer,
        run: run.id,
        ...undoOf,
        ...confirmedPastGuard(confirmedPast.get(row.line) ?? []),
      },
    })),
  ]);
}
