import type { Metadata } from "next";
import { withOrderReferences } from "../order-subjects.server";
import Form from "next/form";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { describeAuditEntry } from "../describe";
import { AUDIT_KINDS } from "@/lib/audit/kinds";
import { AUDIT_FILTER_NAMES, auditSearchParams, parseAuditQuery } from "@/features/audit/filters";
import type { AuditFilters, AuditQuery } from "@/features/audit/filters";
import { requireShop } from "@/lib/auth/session.server";
import { cardTable } from "@/components/ui/card-table";
import { AUDIT_EXPORT_LIMIT, listAuditEntries, listAuditPeople } from "../log.server";
import { env } from "@/lib/env";
import { displayFormat } from "@/lib/format";
import { shopPath } from "@/lib/shops/paths";
import { toSearchParams } from "@/lib/tables/prefetch.server";

export async function auditLogMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("audit"))("title") };
}

const control = "min-h-11 w-full min-w-0 rounded-md border border-zinc-300 bg-white px-2 py-1";
const button = "inline-flex min-h-11 items-center justify-center rounded-md px-4 text-sm font-medium";

// Server-rendered throughout: the filters are a GET form and the pages are links, so the log
// reads, filters and pages without JavaScript. Dates are in the shop's time zone, whatever the
// browser's.
export async function AuditLogPage({
  shopId,
  searchParams,
}: {
  shopId: string;
  searchParams: Record<string, string | string[] | undefined>;
}) {
  const access = await requireShop(shopId, "audit.view");
  const { shop } = access;
  const query = parseAuditQuery(toSearchParams(searchParams));
  // Refused filters are ignored, and the page says which.
  const state: AuditQuery = query.success ? query.data : {};
  const { before, ...filters } = state;
  const [page, people, t, locale] = await Promise.all([
    listAuditEntries(shop, filters, { before }).then(async (found) => ({ ...found, rows: await withOrderReferences(shop.id, found.rows) })),
    listAuditPeople(shop.id),
    getTranslations("audit"),
    getLocale(),
  ]);
  const format = displayFormat({ locale, timeZone: shop.timeZone });
  const filtered = AUDIT_FILTER_NAMES.some((name) => filters[name]);
  const here = (state: AuditFilters, cursor?: string) => {
    const search = auditSearchParams(state, cursor).toString();
    return shopPath(shop.id, `/audit${search ? `?${search}` : ""}`);
  };
  const exportSearch = auditSearchParams(filters).toString();
  const refused = query.success ? [] : [...new Set(query.error.issues.map((issue) => String(issue.path[0] ?? "")))];

  return (
    <section className="min-w-0 space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="mt-1 text-sm text-zinc-600">{t("intro", { days: env.AUDIT_RETENTION_DAYS })}</p>
      </div>

      {refused.length > 0 ? (
        <p role="alert" className="text-sm text-red-800">
          {t("filters.invalid", {
            problem: refused
              .map((name) => (isFilterName(name) ? t(`filters.${name}`) : name === "before" ? t("olderEntries") : name))
              .join(", "),
          })}
        </p>
      ) : null}

      <Form
        action={shopPath(shop.id, "/audit")}
        className="grid grid-cols-1 gap-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm sm:grid-cols-2 lg:grid-cols-4"
        aria-label={t("filters.title")}
      >
        <label className="flex min-w-0 flex-col gap-1">
          {t("filters.person")}
          <select name="person" defaultValue={filters.person ?? ""} className={control}>
            <option value="">{t("filters.anyone")}</option>
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {person.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex min-w-0 flex-col gap-1">
          {t("filters.kind")}
          <select name="kind" defaultValue={filters.kind ?? ""} className={control}>
            <option value="">{t("filters.anyKind")}</option>
            {AUDIT_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t(`kinds.${kind}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex min-w-0 flex-col gap-1">
          {t("filters.from")}
          <input type="date" name="from" defaultValue={filters.from ?? ""} className={control} />
        </label>
        <label className="flex min-w-0 flex-col gap-1">
          {t("filters.to")}
          <input type="date" name="to" defaultValue={filters.to ?? ""} className={control} />
        </label>
        <div className="col-span-full flex flex-wrap gap-2">
          <button type="submit" className={`${button} bg-brand-700 text-white hover:bg-brand-900`}>
            {t("filters.apply")}
          </button>
          {filtered ? (
            <Link href={here({})} className={`${button} border border-zinc-300 bg-white hover:bg-zinc-50`}>
              {t("filters.clear")}
            </Link>
          ) : null}
        </div>
      </Form>

      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        {/* A plain link: the route answers with a download, not a page. */}
        <a
          href={`/api/s/${encodeURIComponent(shop.id)}/audit/export${exportSearch ? `?${exportSearch}` : ""}`}
          download
          className={`${button} border border-zinc-300 bg-white hover:bg-zinc-50`}
          data-testid="audit-export"
        >
          {t("exportCsv")}
        </a>
        <p className="text-xs text-zinc-600">{t("exportHelp", { limit: AUDIT_EXPORT_LIMIT })}</p>
      </div>

      {page.rows.length === 0 ? (
        <p className="rounded-lg border border-zinc-200 bg-white p-6 text-center text-sm text-zinc-600" data-testid="audit-empty">
          {filtered || before ? t("empty.filtered") : t("empty.none")}
        </p>
      ) : (
        <div className={cardTable.frame}>
          <table className={cardTable.table}>
            <caption className="sr-only">{t("table.caption")}</caption>
            <thead className={cardTable.head}>
              <tr>
                <th scope="col" className={cardTable.headCell}>
                  {t("table.when")}
                </th>
                <th scope="col" className={cardTable.headCell}>
                  {t("table.who")}
                </th>
                <th scope="col" className={cardTable.headCell}>
                  {t("table.what")}
                </th>
              </tr>
            </thead>
            <tbody className={cardTable.body}>
              {page.rows.map((row) => (
                <tr key={row.id} className={cardTable.row} data-testid="audit-entry">
                  <td
                    data-label={t("table.when")}
                    className={`${cardTable.labelled} ${cardTable.cell} ${cardTable.pad} md:whitespace-nowrap`}
                  >
                    <time dateTime={row.at.toISOString()}>{format.date(row.at)}</time>
                  </td>
                  <td data-label={t("table.who")} className={`${cardTable.labelled} ${cardTable.cell} ${cardTable.pad} wrap-anywhere`}>
                    {row.personName}
                  </td>
                  {/* The card's title on a phone, as DataTable's `cardTitle` column. */}
                  <td className={`order-first col-span-2 font-medium md:font-normal ${cardTable.cell} ${cardTable.pad} wrap-anywhere`}>
                    {describeAuditEntry(row, t, format)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {before || page.nextBefore ? (
        <nav aria-label={t("pages")} className="flex flex-wrap gap-2">
          {before ? (
            <Link href={here(filters)} className={`${button} border border-zinc-300 bg-white hover:bg-zinc-50`}>
              {t("newestEntries")}
            </Link>
          ) : null}
          {page.nextBefore ? (
            <Link
              href={here(filters, page.nextBefore)}
              className={`${button} border border-zinc-300 bg-white hover:bg-zinc-50`}
              data-testid="audit-older"
            >
              {t("olderEntries")}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

function isFilterName(name: string): name is (typeof AUDIT_FILTER_NAMES)[number] {
  return (AUDIT_FILTER_NAMES as readonly string[]).includes(name);
}
