import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { getTranslations } from "next-intl/server";
import { listOrdersForShop } from "@/features/orders/orders.server";
import { ordersSchema } from "@/features/orders/order-filters";
import { OrdersTable } from "@/features/orders/components/orders-table";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { requireShop } from "@/lib/auth/session.server";
import { requiredScopesFor } from "@marketplace/api/client";
import { prefetchTablePage } from "@/lib/tables/prefetch.server";

export async function ordersPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("orders"))("title") };
}

export async function OrdersPage({ params, searchParams }: PageProps<"/s/[shopId]/orders">) {
  const access = await requireShop((await params).shopId, "orders.view");
  const shop = access.shop;
  const t = await getTranslations("orders");
  const missing = requiredScopesFor("listOrders").filter((scope) => shop.connection.scopesMissing.includes(scope));
  const blocked = shop.connection.needsReconnect || missing.length > 0;
  // The first page is in the HTML (no JavaScript needed to see it); later pages load in the browser.
  const firstPage = blocked
    ? null
    : await prefetchTablePage("orders", shop.id, ordersSchema, await searchParams, (state) => listOrdersForShop(shop, state, access));

  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      {shop.connection.needsReconnect ? (
        <ProblemNotice problem={{ kind: "reconnect" }} feature="yourOrders" />
      ) : missing.length > 0 ? (
        <ProblemNotice problem={{ kind: "missing_scope", scopes: missing }} feature="yourOrders" />
      ) : (
        <HydrationBoundary state={firstPage?.state}>
          <OrdersTable urlValid={firstPage?.urlValid ?? true} />
        </HydrationBoundary>
      )}
    </section>
  );
}
