import "server-only";
import { z } from "zod";
import { searchShops } from "@/features/search/search.server";
import { searchText } from "@/features/search/search-text";
import type { Found } from "@/features/search/found";
import { authorizePersonRequest } from "@/lib/auth/session.server";
import type { PersonShop } from "@/lib/people/people.server";
import { shopPath } from "@/lib/shops/paths";
import { orderLabel } from "@/lib/words/order-reference";

// GET /api/search?q=: what the search box shows as the person types (issue 42). The person's own
// shops only; searchShops applies each role's rules.

const querySchema = z.object({ q: z.string().max(1_000).default("") });

/** The results as the page shows them, linked to the page each opens. */
export async function findFor(shops: readonly PersonShop[], query: string): Promise<Found> {
  const text = searchText(query);
  if (text === null) return { query, searched: false, orders: [], products: [], people: [] };
  const results = await searchShops(shops, text);
  const names = new Map(shops.map((shop) => [shop.id, shop.name]));
  const shopName = (id: string) => names.get(id) ?? "";
  return {
    query: text,
    searched: true,
    orders: results.orders.map((order) => ({
      href: shopPath(order.shopId, `/orders/${encodeURIComponent(order.orderId)}`),
      shopName: shopName(order.shopId),
      reference: orderLabel({ id: order.orderId, reference: order.reference }),
      customerName: order.customerName,
      total: { value: order.total, currency: order.currency, normalizer: order.normalizer },
      createdAt: order.createdAt.toISOString(),
      matched: order.matched,
    })),
    products: results.products.map((product) => ({
      href: shopPath(product.shopId, `/prices?sku=${encodeURIComponent(product.sku)}`),
      shopName: shopName(product.shopId),
      sku: product.sku,
      name: product.name,
    })),
    people: results.people.map((person) => ({
      href: shopPath(person.shopId, "/members"),
      shopName: shopName(person.shopId),
      name: person.name,
      role: person.role,
    })),
  };
}

export async function searchRoute(request: Request): Promise<Response> {
  const person = await authorizePersonRequest();
  if (person instanceof Response) return person;
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return Response.json({ error: "The search text is too long" }, { status: 400 });
  return Response.json(await findFor(person.shops, parsed.data.q), { headers: { "Cache-Control": "private, no-store" } });
}
