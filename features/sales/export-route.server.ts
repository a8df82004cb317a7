import "server-only";
import { getLocale, getTranslations } from "next-intl/server";
import { salesCsv } from "@/features/sales/sales-csv";
import { periodOf, salesChoiceOf } from "@/features/sales/sales-params";
import { salesReport } from "@/features/sales/sales.server";
import { authorizeShopRequest } from "@/lib/auth/session.server";
import { wallClock } from "@/lib/wall-clock";
import type { Locale } from "@/i18n/config";

/** GET /api/s/{shop}/sales/export?period=… or ?from=…&to=…: the sales page's figures as CSV, for whoever sees the page. */
export async function salesExportResponse(request: Request, shopId: string): Promise<Response> {
  const access = await authorizeShopRequest(shopId, "overview.view");
  if (access instanceof Response) return access;
  const { shop } = access;
  const { choice, invalid } = salesChoiceOf(Object.fromEntries(new URL(request.url).searchParams));
  if (invalid)
    return Response.json(
      { error: "The period could not be read: use period=today|7d|30d|month, or from and to as YYYY-MM-DD" },
      { status: 400 },
    );
  const period = periodOf(choice, new Date(), shop.timeZone);
  const [locale, t, report] = await Promise.all([getLocale(), getTranslations("sales"), salesReport(shop, period)]);
  const dayOf = (instant: Date) => {
    const { year, month, day } = wallClock(instant, shop.timeZone);
    return `${year}-${month}-${day}`;
  };
  const csv = salesCsv(report, locale as Locale, {
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
  });
  const fileName = t("export.fileName", { from: dayOf(period.from), to: dayOf(new Date(period.to.getTime() - 1)) });
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName}"`,
      "cache-control": "private, no-store",
    },
  });
}
