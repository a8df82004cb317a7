import "server-only";
// Undoing a bulk run sends the prices it replaced back through the bulk path (guarded, audited,
// batched); this module reads what the run set from its audit entries and previews the undo.
import { z } from "zod";
import { db } from "@/lib/db.server";
import { withPlatform } from "@/lib/platform/platform.server";
import type { PlatformResult } from "@/lib/platform/platform.server";
import { productNamesFor } from "@/lib/catalogue/product-names.server";
import { moneyToDecimalString } from "@/lib/money";
import type { CurrentShop } from "@/lib/shops/shops.server";
import { pricesQuery } from "@marketplace/api/list-query";
import { priceTypeSchema } from "@marketplace/api/schemas/price";
import { priceGuardContext } from "@/features/prices/costs/product-costs.server";
import { listEveryPrice } from "@/features/prices/prices.server";
import { groupPricesByProduct } from "../price-products";
import type { PriceProduct } from "../price-products";
import { judgePrice } from "../guard/price-guard";
import { countKinds, PREVIEW_MAX_PAGES } from "./bulk-preview.server";
import type { BulkPreview, PreviewRow } from "./bulk-preview-rows";
import { foldRunEntries, undoStep } from "./bulk-undo";
import type { RunChange, RunEntry } from "./bulk-undo";

/** A run can be undone while its entries are this recent: the log is searched no further back. */
export const UNDO_WINDOW_DAYS = 2;

const amountSchema = z.object({ value: z.int(), currency: z.string().min(1), normalizer: z.int().positive() });
const entrySchema = z.object({
  subject: z.string().min(1),
  before: amountSchema.nullable(),
  after: amountSchema.extend({ type: priceTypeSchema, undoOf: z.string().optional() }),
});

export type RunRecord = { kind: "run"; changes: RunChange[] } | { kind: "undo" } | { kind: "notFound" };

/**
 * What a bulk run of this shop set, from its price.set entries (whoever of the shop ran it: undoing
 * needs the same permission as applying). An undo is a run too, but is not undone in turn.
 */
export async function bulkRunRecord(shopId: string, runId: string): Promise<RunRecord> {
  const found = await db.$queryRaw<{ subject: string | null; before: unknown; after: unknown }[]>`
    SELECT "subject", "before", "after" FROM "AuditEntry"
    WHERE "sellerId" = ${shopId} AND "kind" = 'price' AND "action" = 'price.set'
      AND "at" > now() - make_interval(days => ${UNDO_WINDOW_DAYS}) AND "after"->>'run' = ${runId}
    ORDER BY "id"`;
  const entries: RunEntry[] = [];
  for (const row of found) {
    const parsed = entrySchema.safeParse(row);
    if (!parsed.success) continue;
    if (parsed.data.after.undoOf !== undefined) return { kind: "undo" };
    const { subject, before, after } = parsed.data;
    entries.push({
      sku: subject,
      type: after.type,
      before,
      after: { value: after.value, currency: after.currency, normalizer: after.normalizer },
    });
  }
  return entries.length === 0 ? { kind: "notFound" } : { kind: "run", changes: foldRunEntries(entries) };
}

/**
 * Undoes of one run are taken one at a time, sends included, so two at once (a double click, a
 * batch sent again while its first call still runs) cannot both find a price still to go back:
 * the second reads it back already and sends nothing.
 */
export async function withUndoLock<T>(shopId: string, runId: string, work: () => Promise<T>): Promise<T> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('bulk-undo'), hashtext(${`${shopId}/${runId}`}))`;
      return work();
    },
    // A batch stops starting requests after 18 s (bulk/actions.ts); one waiting for another's lock adds that.
    { maxWait: 10_000, timeout: 60_000 },
  );
}

/** The run's products as the platform holds them now. */
async function currentProducts(shop: CurrentShop, skus: readonly string[]): Promise<PlatformResult<Map<string, PriceProduct>>> {
  return withPlatform(shop, "listPrices", async (client) => {
    const listed = await listEveryPrice(client, PREVIEW_MAX_PAGES);
    const wanted = new Set(skus);
    const prices = listed.prices.filter((price) => wanted.has(price.sku));
    if (!listed.complete) {
      // Beyond the listing's cap, each product not seen is read on its own.
      const seen = new Set(prices.map((price) => price.sku));
      for (const sku of skus.filter((code) => !seen.has(code)))
        prices.push(...(await client.listPrices(pricesQuery({ sku, limit: 10, sort: { field: "created_at", direction: "desc" } }))).items);
    }
    return new Map(groupPricesByProduct(prices).map((product) => [product.sku, product]));
  });
}

export type UndoPreviewResult = PlatformResult<BulkPreview> | { ok: false; refusal: "notFound" | "isUndo" };

/**
 * Each price the run changed, back to what it was, or why it stays (undoStep); the guard marks
 * what it would hold, as in a file's preview. Sends nothing.
 */
export async function previewBulkUndo(shop: CurrentShop, runId: string): Promise<UndoPreviewResult> {
  const record = await bulkRunRecord(shop.id, runId);
  if (record.kind !== "run") return { ok: false, refusal: record.kind === "undo" ? "isUndo" : "notFound" };
  const skus = [...new Set(record.changes.map((change) => change.sku))];
  const [products, guard, names] = await Promise.all([
    currentProducts(shop, skus),
    priceGuardContext(shop.id, skus),
    productNamesFor(shop.id, skus),
  ]);
  if (!products.ok) return products;
  const rows = record.changes.map((change, index): PreviewRow => {
    const line = index + 2;
    const product = products.data.get(change.sku);
    const now = product?.[change.type] ?? null;
    const current = now ? { id: now.id, value: now.value, currency: now.currency, normalizer: now.normalizer } : null;
    const step = undoStep(change, now);
    if ("skip" in step) {
      return {
        line,
        sku: change.sku,
        type: change.type,
        value: now ? moneyToDecimalString(now) : "",
        currency: now?.currency ?? "",
        reason: { code: step.skip },
        kind: "invalid",
        ...(current ? { kept: current } : {}),
      };
    }
    const back = { ...step.send, type: change.type };
    const held = judgePrice(
      { current: { list: product?.list ?? null, sell: product?.sell ?? null }, cost: guard.costs.get(change.sku) ?? null },
      back,
      guard.limitPercent,
      guard.rateBps,
    );
    return {
      line,
      sku: change.sku,
      amount: moneyToDecimalString(step.send),
      ...back,
      kind: "changed",
      // undoStep sends only from the price the run left, so there is one.
      current: current!,
      ...(held.length > 0 ? { held } : {}),
    };
  });
  return {
    ok: true,
    data: {
      rows,
      counts: countKinds(rows),
      names: Object.fromEntries(names),
      complete: true,
      pricesSeen: rows.length,
      source: "undo",
      undoOf: runId,
    },
  };
}
