import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { OrderDetails } from "@/components/orders/order-details";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { requireSeller } from "@/lib/auth/session";
import { getOrderForSeller } from "@/lib/data/orders";
import { objectIdSchema } from "@/lib/marketplace/schemas/common";

export const metadata: Metadata = { title: "Order" };

export default async function OrderPage({ params }: PageProps<"/orders/[id]">) {
  const seller = await requireSeller();
  const { id } = await params;
  if (!objectIdSchema.safeParse(id).success) notFound();
  const result = await getOrderForSeller(seller, id);
  if (result.ok && result.data === null) notFound();

  return (
    <div className="space-y-4">
      <Link href="/orders" className="text-sm text-brand-700 hover:underline">
        ← Orders
      </Link>
      {result.ok && result.data ? <OrderDetails order={result.data} /> : !result.ok ? <ProblemNotice problem={result.problem} feature="this order" /> : null}
    </div>
  );
}
