import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { getReferencedOrder } from "@/features/orders/orders.server";
import { withoutCustomerData } from "@/features/orders/mask-document";
import { OrderDetails } from "@/features/orders/components/order-details";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { PlatformAnswer } from "@/components/platform/platform-answer";
import { DetailLoading } from "@/components/ui/detail-loading";
import { requireShop } from "@/lib/auth/session.server";
import { objectIdSchema } from "@marketplace/api/schemas/common";
import { ShopLink } from "@/components/shop-link";
import { can } from "@/lib/people/roles";

export async function orderPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("orders.detail"))("title") };
}

export async function OrderPage({ params }: PageProps<"/s/[shopId]/orders/[id]">) {
  const access = await requireShop((await params).shopId, "orders.view");
  const shop = access.shop;
  const { id } = await params;
  if (!objectIdSchema.safeParse(id).success) notFound();
  const t = await getTranslations("orders");
  const seesCustomers = can(access.role, "orders.customerData");

  return (
    <div className="space-y-4">
      <ShopLink href="/orders" className="text-sm text-brand-700 hover:underline">
        ← {t("title")}
      </ShopLink>
      <PlatformAnswer answer={getReferencedOrder(shop, id)} placeholder={<DetailLoading what={t("detail.loading")} />}>
        {(result) => {
          if (!result.ok) return <ProblemNotice problem={result.problem} feature="thisOrder" />;
          if (result.data === null) notFound();
          return (
            <OrderDetails
              order={seesCustomers ? result.data.order : withoutCustomerData(result.data.order)}
              reference={result.data.reference}
              seesCustomers={seesCustomers}
              now={new Date()}
            />
          );
        }}
      </PlatformAnswer>
    </div>
  );
}
