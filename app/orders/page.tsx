import type { Metadata } from "next";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { requireSeller } from "@/lib/auth/session";
import { withPlatform } from "@/lib/data/platform";

export const metadata: Metadata = { title: "Orders" };

export default async function OrdersPage() {
  const seller = await requireSeller();
  const result = await withPlatform(seller, "listOrders", (client) =>
    client.listOrders(new URLSearchParams({ _limit: "25", _sort: "created_at:desc" })),
  );

  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Orders</h1>
      {result.ok ? (
        <table className="w-full overflow-hidden rounded-lg border border-zinc-200 bg-white text-sm">
          <thead className="bg-zinc-50 text-left text-zinc-500">
            <tr>
              <th className="px-4 py-2 font-medium">Order</th>
              <th className="px-4 py-2 font-medium">Status</th>
              <th className="px-4 py-2 font-medium">Customer</th>
              <th className="px-4 py-2 font-medium">Created</th>
            </tr>
          </thead>
          <tbody>
            {result.data.results.map((order) => (
              <tr key={order.id} className="border-t border-zinc-100">
                <td className="px-4 py-2 font-mono text-xs">{order.id}</td>
                <td className="px-4 py-2">{order.status}</td>
                <td className="px-4 py-2">{order.customer.name}</td>
                <td className="px-4 py-2">{order.created_at}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <ProblemNotice problem={result.problem} feature="your orders" />
      )}
    </section>
  );
}
