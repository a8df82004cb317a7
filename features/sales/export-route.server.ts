import "server-only";
import { getLocale, getTranslations } from "next-intl/server";
import { salesCsv } from "@/features/sales/sales-csv";
import { periodOf, rankingOf, salesChoiceOf } from "@/features/sales/sales-params";
import { bestProducts } from "@/features/sales/best-products";
import { productSales } from "@/features/sales/best-products.server";
import { can } from "@/lib/people/roles";
import { salesReport } from "@/features/sales/sales.server";
import { authorizeShopRequest } from "@/lib/auth/session.server";
import { wallDay } from "@/lib/wall-clock";
import type { Locale } from "@/i18n/config";

/** GET /api/s/{shop}/sales/export?period=… or ?from=…&to=…: the sales page's figures as CSV, for whoever sees the page. */
export async function salesExportResponse(request: Request, shopId: string): Promise<Response> {
  const access = await authorizeShopRequest(shopId, "overview.view");
  if (access instanceof Response) return access;
  const { shop } = access;
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const { choice, invalid } = salesChoiceOf(params);
  if (invalid)
    return Response.json(
      { error: "The period could not be read: use period=today|7d|30d|month, or from and to as YYYY-MM-DD" },
      { status: 400 },
    );
  const period = periodOf(choice, new Date(), shop.timeZone);
  const showMargin = can(access.role, "prices.view");
  const ranking = rankingOf(params);
  const [locale, t, report, products] = await Promise.all([
    getLocale(),
    getTranslations("sales"),
    salesReport(shop, period),
    productSales(shop.id, period),
  ]);
  const best = bestProducts(products, ranking === "margin" && !showMargin ? "revenue" : ranking);
  const csv = salesCsv(report, best, showMargin, locale as Locale, {
    figure: t("export.figure"),
    current: t("export.current"),
    previous: t("export.previous"),
    bucket: t(period.bucket === "week" ? "export.week" : "export.day"),
    figures: {
      gross: t("figures.gross"),
      net: t("figures.net"),
      orders: t("figures.orders"),
      ticket: t("figures.ticket"),
      cancelled: t("figures.cancelled"),
    },
    chart: { gross: t("chart.gross"), net: t("chart.net"), orders: t("figures.orders") },
    states: { state: t("states.state"), orders: t("states.orders"), gross: t("states.gross"), unknown: t("states.unknown") },
    products: {
      product: t("export.product"),
      sku: t("export.sku"),
      units: t("export.units"),
      revenue: t("export.revenue"),
      margin: t("export.margin"),
    },
  });
  const fileName = t("export.fileName", { from: wallDay(period.from, shop.timeZone), to: wallDay(period.to.getTime() - 1, shop.timeZone) });
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName}"`,
      "cache-control": "private, no-store",
    },
  });
}
