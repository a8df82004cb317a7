import "server-only";
import { db } from "@/lib/db.server";
import { nameFromCatalogue } from "@/lib/catalogue/product-names.server";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { SkuCreate } from "@marketplace/api/schemas/sku";
import type { SkuPage, SkuRow } from "@/features/skus/sku-rows";
import { countedPage } from "@/lib/tables/table-page";

// The platform cannot list SKUs (spec: Endpoints 4–7), so we keep the ones we created.

export type { SkuRow };

const rowSelect = { id: true, code: true, title: true, status: true, createdAt: true, confirmedAt: true } as const;

type SelectedRow = Prisma.SkuGetPayload<{ select: typeof rowSelect }>;

const toRow = (row: SelectedRow): SkuRow => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  confirmedAt: row.confirmedAt?.toISOString() ?? null,
});

/** Newest first; `search` matches part of the code or the title. */
export async function listSkus(shopId: string, options: { search?: string; page: number; size: number }): Promise<SkuPage> {
  const where: Prisma.SkuWhereInput = { shopId };
  if (options.search) {
    where.OR = [{ code: { contains: options.search, mode: "insensitive" } }, { title: { contains: options.search, mode: "insensitive" } }];
  }
  const [total, rows] = await Promise.all([
    db.sku.count({ where }),
    db.sku.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (options.page - 1) * options.size,
      take: options.size,
      select: rowSelect,
    }),
  ]);
  return countedPage(rows.map(toRow), total, options);
}

export interface StoredSku extends SkuRow {
  importToken: string | null;
  /** `unknown`: older versions of the form stored other shapes. */
  payload: unknown;
}

export async function getSku(shopId: string, id: string): Promise<StoredSku | null> {
  const row = await db.sku.findFirst({ where: { id, shopId }, select: { ...rowSelect, importToken: true, payload: true } });
  if (!row) return null;
  let payload: unknown = null;
  try {
    payload = JSON.parse(row.payload);
  } catch {
    // A payload that is not JSON shows as missing; the SKU itself is still listed.
  }
  return { ...toRow(row), importToken: row.importToken, payload };
}

/**
 * `created: false` when the platform answered with an existing SKU ("not updated"). Its
 * `portfolio.sku` notification may have come first and found no row, so an event already received
 * confirms the SKU here; checked after the insert, so a later event finds the row.
 */
export async function recordImportedSku(
  shopId: string,
  input: { id: string; importToken: string; sku: SkuCreate },
): Promise<{ created: boolean }> {
  const existing = await db.sku.findUnique({ where: { id: input.id }, select: { shopId: true } });
  if (existing) return { created: false };

  const title = input.sku.title.pt_BR ?? Object.values(input.sku.title)[0] ?? "";
  try {
    await db.$transaction([
      db.sku.create({
        data: { id: input.id, shopId, code: input.sku.code, title, importToken: input.importToken, payload: JSON.stringify(input.sku) },
      }),
      ...(title.trim() ? [nameFromCatalogue(shopId, input.sku.code, title)] : []),
    ]);
  } catch (error) {
    // The same SKU sent twice at once: the other request recorded it first.
    if (await db.sku.findUnique({ where: { id: input.id }, select: { id: true } })) return { created: false };
    throw error;
  }
  const earlyEvent = await db.webhookEvent.findFirst({
    where: { shopId, domain: "portfolio.sku", resourceId: input.id, valid: true },
    orderBy: { receivedAt: "asc" },
    select: { receivedAt: true },
  });
  if (earlyEvent) {
    await db.sku.update({ where: { id: input.id }, data: { status: "created", confirmedAt: earlyEvent.receivedAt } });
  }
  return { created: true };
}
