import "server-only";
import { getLocale, getTranslations } from "next-intl/server";
import { authorizeShopRequest } from "@/lib/auth/session.server";
import { csvStream } from "@/lib/csv/csv-stream";
import { exportHead, exportLines } from "./export-csv";
import { exportOrderPages } from "./orders-export.server";
import { ordersSchema } from "./order-filters";
import type { ExportSettings } from "./export-csv";
import { requestLog } from "@/lib/log.server";
import { badQuery } from "@/lib/tables/list-route.server";
import { exportDay } from "@/lib/csv/dialects";

// "Export CSV" of the orders list's current filter, streamed as the platform's pages come. A failure
// after the first bytes ends the stream with an error, so the file is not saved half-written.
export async function ordersExportResponse(request: Request, shopId: string): Promise<Response> {
  const access = await authorizeShopRequest(shopId, "orders.export");
  if (access instanceof Response) return access;
  const shop = access.shop;
  const t = await getTranslations("orders.export");
  const params = new URL(request.url).searchParams;
  params.delete("page");
  params.delete("size");
  const filters = ordersSchema.parse(params);
  if (!filters.success) return badQuery(filters.error);
  // Everything that needs the request is read now: the stream is pulled after this returns.
  const [locale, problems] = await Promise.all([getLocale(), getTranslations("problems")]);
  const settings: ExportSettings = { locale, timeZone: shop.timeZone };
  const head = exportHead(locale, (column) => t(`columns.${column}`));
  const stream = csvStream({
    head,
    pages: exportOrderPages(shop, filters.data, problems),
    lines: (orders) => exportLines(orders, settings),
    onError: (error) => requestLog(request, { shopId: shop.id, component: "export" }).error({ err: error }, "orders export stopped"),
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${t("fileName", { day: exportDay(new Date(), shop.timeZone) })}"`,
      "cache-control": "private, no-store",
    },
  });
}
