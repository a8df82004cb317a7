import type { Metadata } from "next";
import { HydrationBoundary } from "@tanstack/react-query";
import { getTranslations } from "next-intl/server";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { listShippingOrders } from "@/features/shipping/packing.server";
import { shippingSchema } from "@/features/shipping/selection";
import { ShippingTable } from "@/features/shipping/components/shipping-table";
import { requireShop } from "@/lib/auth/session.server";
import { local } from "@/lib/tables/list-route.server";
import { requiredScopesFor } from "@marketplace/api/client";
import { prefetchTablePage } from "@/lib/tables/prefetch.server";
import { can } from "@/lib/people/roles";

export async function shippingPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("shipping"))("title") };
}

// The shipping morning (decision 0013): the orders to ship, from the dashboard's own order mirror
// (so the list answers while the platform is slow), their packing stages, and what to do with a
// selection: the picking list, the labels PDF, a stage.
export async function ShippingPage({ params, searchParams }: PageProps<"/s/[shopId]/shipping">) {
  const access = await requireShop((await params).shopId, "orders.view");
  const shop = access.shop;
  const t = await getTranslations("shipping");
  const firstPage = await prefetchTablePage("shipping", shop.id, shippingSchema, await searchParams, (state) =>
    local(listShippingOrders(shop, state, { seesCustomers: can(access.role, "orders.customerData") })),
  );
  // The list is the dashboard's own; the picking list and the labels read the orders from the platform.
  const missing = requiredScopesFor("listOrders").filter((scope) => shop.connection.scopesMissing.includes(scope));

  return (
    <section className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="text-sm text-zinc-600">{t("intro")}</p>
      </div>
      {shop.connection.needsReconnect ? (
        <ProblemNotice problem={{ kind: "reconnect" }} feature="yourOrders" />
      ) : missing.length > 0 ? (
        <ProblemNotice problem={{ kind: "missing_scope", scopes: missing }} feature="yourOrders" />
      ) : null}
      <HydrationBoundary state={firstPage.state}>
        <ShippingTable urlValid={firstPage.urlValid} />
      </HydrationBoundary>
    </section>
  );
}
