import type { Metadata } from "next";
import { Suspense } from "react";
import { OrdersTable } from "@/components/orders/orders-table";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { requireSeller } from "@/lib/auth/session";
import { requiredScopesFor } from "@/lib/marketplace/client";

export const metadata: Metadata = { title: "Orders" };

export default async function OrdersPage() {
  const seller = await requireSeller();
  const missing = requiredScopesFor("listOrders").filter((scope) => seller.connection.scopesMissing.includes(scope));

  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Orders</h1>
      {seller.connection.needsReconnect ? (
        <ProblemNotice problem={{ kind: "reconnect" }} feature="your orders" />
      ) : missing.length > 0 ? (
        <ProblemNotice problem={{ kind: "missing_scope", scopes: missing }} feature="your orders" />
      ) : (
        <Suspense>
          <OrdersTable />
        </Suspense>
      )}
    </section>
  );
}
