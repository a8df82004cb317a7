import "server-only";
import { getLocale, getTranslations } from "next-intl/server";
import { parseAuditFilters } from "@/features/audit/filters";
import { authorizeShopRequest } from "@/lib/auth/session.server";
import { badQuery } from "@/lib/tables/list-route.server";
import { exportDay } from "@/lib/csv/dialects";
import { auditCsvStream } from "./log.server";

// "Export CSV" of the audit log: the page's filters (its cursor ignored: the file starts at the
// newest entry), streamed in the request's language and the shop's time zone, at most
// AUDIT_EXPORT_LIMIT entries (./log.server.ts).
export async function auditExportResponse(request: Request, shopId: string): Promise<Response> {
  const access = await authorizeShopRequest(shopId, "audit.view");
  if (access instanceof Response) return access;
  const query = new URL(request.url).searchParams;
  query.delete("before");
  const filters = parseAuditFilters(query);
  if (!filters.success) return badQuery(filters.error);
  // Everything that needs the request is read now: the stream is pulled after this returns.
  const [locale, t] = await Promise.all([getLocale(), getTranslations("audit")]);
  const { shop } = access;
  return new Response(auditCsvStream(shop, filters.data, { locale, timeZone: shop.timeZone, t }), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${t("export.fileName", { day: exportDay(new Date(), shop.timeZone) })}"`,
      "cache-control": "private, no-store",
    },
  });
}
