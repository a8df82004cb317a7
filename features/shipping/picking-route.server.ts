import "server-only";
import { getLocale, getTranslations } from "next-intl/server";
import { authorizeShopRequest } from "@/lib/auth/session.server";
import { badQuery } from "@/lib/tables/list-route.server";
import { problemResponse } from "@/lib/platform/problem-response";
import { displayFormat } from "@/lib/format";
import { exportDay } from "@/lib/csv/dialects";
import { loadPickingList } from "./picking-data.server";
import { parseSelectionParams } from "./selection";
import { renderPickingPdf } from "./picking-pdf";
import { can } from "@/lib/people/roles";
import { orderLabel } from "@/lib/words/order-reference";

// The picking list as a PDF: the same selection as the printable page (its URL's parameters), the
// same list (features/shipping/picking-list.ts), in the reader's language and the shop's time zone.
export async function pickingPdfResponse(request: Request, shopId: string): Promise<Response> {
  const access = await authorizeShopRequest(shopId, "orders.view");
  if (access instanceof Response) return access;
  const shop = access.shop;
  const selection = parseSelectionParams(new URL(request.url).searchParams);
  if (!selection.success) return badQuery(selection.error);
  const loaded = await loadPickingList(shop, selection.data, { seesCustomers: can(access.role, "orders.customerData") });
  if (!loaded.ok) return problemResponse(loaded.problem);
  const [locale, t] = await Promise.all([getLocale(), getTranslations("shipping.picking")]);
  const format = displayFormat({ locale, timeZone: shop.timeZone });
  const { list } = loaded.data;
  const now = new Date();
  const pdf = await renderPickingPdf(list, {
    title: t("title"),
    summary: `${t("summary", { orders: list.totals.orders, parcels: list.totals.parcels, units: list.totals.units })} · ${format.date(now)}`,
    bySku: t("bySku"),
    byOrder: t("byOrder"),
    columns: { quantity: t("columns.quantity"), sku: t("columns.sku"), product: t("columns.product") },
    order: (order) =>
      [t("order", { id: orderLabel(order) }), order.customerName, t("shipBy", { at: format.date(order.shipBy) })]
        .filter(Boolean)
        .join(" · "),
    parcel: (parcel) => t("parcel", { tracking: parcel.trackingNumber || "—" }),
    share: (share) => t("share", { order: orderLabel({ id: share.orderId, reference: share.reference }), quantity: share.quantity }),
    page: (page, pages) => t("page", { page, pages }),
    empty: t("empty"),
  });
  return new Response(new Uint8Array(pdf), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${t("fileName", { day: exportDay(now, shop.timeZone) })}"`,
      "cache-control": "private, no-store",
    },
  });
}
