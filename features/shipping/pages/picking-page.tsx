import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { loadPickingList } from "@/features/shipping/picking-data.server";
import { parseSelectionSearchParams } from "@/features/shipping/selection";
import { selectionSearchParams } from "@/features/shipping/shipping-params";
import { PickingListView } from "@/features/shipping/components/picking-list-view";
import { ShopLink } from "@/components/shop-link";
import { requireShop } from "@/lib/auth/session.server";
import { getDisplayFormat } from "@/lib/format.server";
import { shopPath } from "@/lib/shops/paths";
import { can } from "@/lib/people/roles";
import "./print.css";

export async function pickingPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("shipping.picking"))("title") };
}

// The printable picking list of a selection of the shipping page (its URL: `ids=…` or
// `all=1&due=…&stage=…`), read from the platform as the orders are now, with its PDF beside it.
export async function PickingPage({ params, searchParams }: PageProps<"/s/[shopId]/shipping/picking">) {
  const access = await requireShop((await params).shopId, "orders.view");
  const shop = access.shop;
  const t = await getTranslations("shipping.picking");
  const selection = parseSelectionSearchParams(await searchParams);
  if (!selection.success) {
    return (
      <div className="space-y-4">
        <p role="alert" className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
          {t("invalid")}
        </p>
        <ShopLink href="/shipping" className="text-sm text-brand-700 hover:underline">
          {t("back")}
        </ShopLink>
      </div>
    );
  }
  const [loaded, format] = await Promise.all([
    loadPickingList(shop, selection.data, { seesCustomers: can(access.role, "orders.customerData") }),
    getDisplayFormat(),
  ]);
  if (!loaded.ok) {
    return (
      <div className="space-y-4">
        <ShopLink href="/shipping" className="text-sm text-brand-700 hover:underline">
          {t("back")}
        </ShopLink>
        <ProblemNotice problem={loaded.problem} feature="yourOrders" />
      </div>
    );
  }
  const pdfHref = `/api${shopPath(shop.id, "/shipping/picking.pdf")}?${selectionSearchParams(selection.data)}`;
  return <PickingListView list={loaded.data.list} truncated={loaded.data.truncated} pdfHref={pdfHref} format={format} />;
}
