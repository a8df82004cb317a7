import "server-only";
import { z } from "zod";
import { ordersQuery } from "@marketplace/api/list-query";
import { db } from "@/lib/db.server";
import { everyPage, withPlatform } from "@/lib/platform/platform.server";
import type { CurrentShop } from "@/lib/shops/shops.server";
import { bestSellersOf, bestSellersSince } from "@/features/overview/setup-guide/best-sellers";
import type { SoldOrder, UnitsSold } from "@/features/overview/setup-guide/best-sellers";

// The order mirror keeps no items, so units per SKU come from the platform's orders of the last 30
// days, counted once every few hours and kept on the guide's row: the overview, which every
// notification refreshes, reads the platform at most that often.

const FRESH_FOR_MS = 6 * 60 * 60_000;
/** A shop selling more than this in 30 days is ranked by its newest orders. */
const MAX_ORDERS = 1_000;

const cachedSchema = z.array(z.object({ sku: z.string(), units: z.number().int() }));

class OrdersUnreadable extends Error {}

/** The platform's orders placed since `since`, newest first, up to MAX_ORDERS; null when it cannot be read. */
async function recentOrders(shop: CurrentShop, since: Date): Promise<SoldOrder[] | null> {
  const orders: SoldOrder[] = [];
  // Placed since `since` means updated since too; sorted by placing, the first older one ends the list.
  const pages = everyPage(async (limit, offset) => {
    const query = ordersQuery({ updatedFrom: since, sort: { field: "created_at", direction: "desc" }, limit, offset });
    const result = await withPlatform(shop, "listOrders", (client) => client.listOrderSummaries(query));
    if (!result.ok) throw new OrdersUnreadable();
    return result.data;
  });
  try {
    for await (const page of pages) {
      orders.push(...page);
      if (orders.length >= MAX_ORDERS || page.some((order) => Date.parse(order.created_at) < since.getTime())) break;
    }
  } catch (error) {
    if (error instanceof OrdersUnreadable) return null;
    throw error;
  }
  return orders;
}

/**
 * The shop's `limit` best sellers of the last 30 days, most units first: the kept count while it is
 * fresh, else counted again. Null when they were never counted and the platform cannot say now.
 */
export async function bestSellers(shop: CurrentShop, limit: number, now = new Date()): Promise<UnitsSold[] | null> {
  const row = await db.setupGuide.findUnique({ where: { shopId: shop.id }, select: { bestSellers: true, bestSellersAt: true } });
  const kept = cachedSchema.safeParse(row?.bestSellers);
  const cached = kept.success ? kept.data.slice(0, limit) : null;
  if (cached && row?.bestSellersAt && now.getTime() - row.bestSellersAt.getTime() < FRESH_FOR_MS) return cached;

  const orders = await recentOrders(shop, bestSellersSince(now));
  // An older count beats none while the platform cannot answer (a reconnect, a missing scope, an outage).
  if (orders === null) return cached;
  const counted = bestSellersOf(orders, bestSellersSince(now), limit);
  await db.setupGuide.upsert({
    where: { shopId: shop.id },
    create: { shopId: shop.id, bestSellers: counted, bestSellersAt: now },
    update: { bestSellers: counted, bestSellersAt: now },
  });
  return counted;
}
