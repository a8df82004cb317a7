import { getTranslations } from "next-intl/server";
import { orderLabel } from "@/lib/words/order-reference";
import { PrintButton } from "@/features/shipping/components/print-button";
import { ShopLink } from "@/components/shop-link";
import { cardTable } from "@/components/ui/card-table";
import type { DisplayFormat } from "@/lib/format";
import type { PickingList } from "@/features/shipping/picking-list";
import { MAX_SELECTION_ORDERS } from "@/features/shipping/shipping-params";
import { orderStatusWord } from "@/lib/words/order-words";

// The printable picking list: on screen at any width (cards on a phone), and on paper through the
// print variants (no buttons, no shop header, rows never split across pages, boxes to tick).

/** A box to tick with a pen: only drawn, never a control. */
/** On a phone a card of three columns: the box, the picture, then quantity over code; name and orders below. */
const SKU_ROW = cardTable.row.replace("grid-cols-[auto_minmax(0,1fr)]", "grid-cols-[auto_auto_minmax(0,1fr)]");
/** Print lays the list out as a table, whatever the paper's width says to the breakpoints. */
const PRINT_CELL = "print:table-cell print:px-2 print:py-1 print:align-middle";

const TickBox = () => (
  <span aria-hidden="true" className="inline-block size-4 shrink-0 rounded-sm border-2 border-zinc-700 print:border-black" />
);

export async function PickingListView({
  list,
  truncated,
  pdfHref,
  format,
}: {
  list: PickingList;
  truncated: boolean;
  pdfHref: string;
  format: DisplayFormat;
}) {
  const [t, words] = await Promise.all([getTranslations("shipping.picking"), getTranslations("words")]);
  return (
    <article className="space-y-6 print:space-y-4 print:text-black" data-picking-list="">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight print:text-xl">{t("title")}</h1>
          <p className="text-sm text-zinc-700 print:text-black" data-testid="picking-summary">
            {t("summary", { orders: list.totals.orders, parcels: list.totals.parcels, units: list.totals.units })} ·{" "}
            {t("generated", { at: format.date(new Date()) })}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2 text-sm print:hidden">
          <PrintButton label={t("print")} />
          <a
            href={pdfHref}
            className="inline-flex min-h-11 items-center rounded-md border border-zinc-300 bg-white px-4 font-medium hover:bg-zinc-50 md:min-h-9"
          >
            {t("pdf")}
          </a>
          <ShopLink href="/shipping" className="inline-flex min-h-11 items-center px-2 text-brand-700 hover:underline md:min-h-9">
            {t("back")}
          </ShopLink>
        </div>
      </div>
      {truncated ? <p className="text-sm text-amber-900">{t("truncated", { max: MAX_SELECTION_ORDERS })}</p> : null}

      {list.orders.length === 0 ? (
        <p className="rounded-lg border border-zinc-200 bg-white p-6 text-center text-sm text-zinc-700">{t("empty")}</p>
      ) : (
        <>
          <section aria-labelledby="picking-by-sku" className="space-y-2">
            <h2 id="picking-by-sku" className="text-lg font-semibold">
              {t("bySku")}
            </h2>
            <div className={`${cardTable.frame} print:rounded-none print:border-0`}>
              <table className={`${cardTable.table} print:table`}>
                <thead className={`${cardTable.head} print:table-header-group print:bg-transparent print:text-black`}>
                  <tr>
                    <th scope="col" className={`${cardTable.headCell} print:px-2`}>
                      <span className="sr-only">{t("columns.picked")}</span>
                    </th>
                    <th scope="col" className={`${cardTable.headCell} print:px-2`}>
                      <span className="sr-only">{t("columns.picture")}</span>
                    </th>
                    <th scope="col" className={`${cardTable.headCell} text-right print:px-2`}>
                      {t("columns.quantity")}
                    </th>
                    <th scope="col" className={`${cardTable.headCell} print:px-2`}>
                      {t("columns.sku")}
                    </th>
                    <th scope="col" className={`${cardTable.headCell} print:px-2`}>
                      {t("columns.product")}
                    </th>
                    <th scope="col" className={`${cardTable.headCell} print:px-2`}>
                      {t("columns.orders")}
                    </th>
                  </tr>
                </thead>
                <tbody className={`${cardTable.body} print:table-row-group`}>
                  {list.skus.map((sku) => (
                    <tr
                      key={sku.sku}
                      className={`${SKU_ROW} break-inside-avoid print:table-row print:rounded-none print:border-0 print:border-t print:border-zinc-400`}
                      data-testid="picking-sku"
                      data-sku={sku.sku}
                      data-quantity={sku.quantity}
                    >
                      <td className={`${cardTable.cell} ${cardTable.pad} ${PRINT_CELL}`}>
                        <TickBox />
                      </td>
                      <td className={`${cardTable.cell} ${cardTable.pad} row-span-2 ${PRINT_CELL}`}>
                        {sku.picture ? (
                          // Pictures come from the platform's hosts, as on the order page.
                          // eslint-disable-next-line @next/next/no-img-element
                          <img
                            src={sku.picture}
                            alt=""
                            width={48}
                            height={48}
                            className="size-12 max-w-none rounded border border-zinc-200 object-cover print:size-10"
                          />
                        ) : (
                          <span aria-hidden="true" className="block size-12 rounded bg-zinc-100 print:size-10" />
                        )}
                      </td>
                      <td
                        className={`${cardTable.cell} ${cardTable.pad} text-2xl font-semibold tabular-nums md:text-right md:text-base ${PRINT_CELL} print:text-right print:text-base`}
                        data-testid="picking-quantity"
                      >
                        {format.count(sku.quantity)}
                      </td>
                      <td
                        className={`${cardTable.cell} ${cardTable.pad} col-start-3 font-mono text-xs wrap-anywhere md:col-start-auto md:whitespace-nowrap ${PRINT_CELL} print:whitespace-nowrap`}
                      >
                        {sku.sku}
                      </td>
                      <th scope="row" className={`${cardTable.cell} ${cardTable.pad} col-span-3 text-left font-medium ${PRINT_CELL}`}>
                        {sku.name}
                      </th>
                      <td className={`${cardTable.cell} ${cardTable.pad} col-span-3 text-xs text-zinc-700 ${PRINT_CELL} print:text-black`}>
                        {sku.orders
                          .map((share) =>
                            t("share", { order: orderLabel({ id: share.orderId, reference: share.reference }), quantity: share.quantity }),
                          )
                          .join(", ")}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>

          <section aria-labelledby="picking-by-order" className="space-y-3 print:break-before-page">
            <h2 id="picking-by-order" className="text-lg font-semibold">
              {t("byOrder")}
            </h2>
            <ol className="space-y-3">
              {list.orders.map((order) => (
                <li
                  key={order.id}
                  className="break-inside-avoid rounded-lg border border-zinc-200 bg-white p-3 text-sm print:rounded-none print:border-x-0 print:border-t-0 print:border-zinc-400 print:p-2"
                  data-testid="picking-order"
                  data-order={order.id}
                >
                  <h3 className="flex flex-wrap items-baseline gap-x-2 font-medium">
                    <span className="tabular-nums">{t("order", { id: orderLabel(order) })}</span>
                    {order.customerName ? <span>{order.customerName}</span> : null}
                    <span className="text-zinc-700 print:text-black">
                      <time dateTime={order.shipBy}>{t("shipBy", { at: format.date(order.shipBy) })}</time>
                    </span>
                  </h3>
                  {order.parcels.map((parcel) => (
                    <div
                      key={parcel.deliveryId}
                      className="mt-2 space-y-1"
                      data-testid="picking-parcel"
                      data-tracking={parcel.trackingNumber}
                    >
                      <p className="text-xs text-zinc-700 print:text-black">{t("parcel", { tracking: parcel.trackingNumber || "—" })}</p>
                      <ul className="space-y-1">
                        {parcel.items.map((item, index) => (
                          <li key={`${item.sku}-${index}`} className="flex items-center gap-2">
                            <TickBox />
                            <span className="w-10 text-right font-semibold tabular-nums">{format.count(item.quantity)} ×</span>
                            <span className="font-mono text-xs">{item.sku}</span>
                            <span className="min-w-0 wrap-anywhere">{item.name}</span>
                          </li>
                        ))}
                      </ul>
                    </div>
                  ))}
                </li>
              ))}
            </ol>
          </section>
        </>
      )}

      {list.skipped.length > 0 ? (
        <section aria-labelledby="picking-skipped" className="space-y-1 text-sm print:hidden" data-testid="picking-skipped">
          <h2 id="picking-skipped" className="font-semibold">
            {t("skippedTitle")}
          </h2>
          <SkippedList list={list} status={(status) => orderStatusWord(words, status)} />
        </section>
      ) : null}
    </article>
  );
}

async function SkippedList({ list, status }: { list: PickingList; status: (code: string) => string }) {
  const t = await getTranslations("shipping.labels.skipped");
  return (
    <ul className="list-disc space-y-1 pl-5">
      {list.skipped.map((order) => (
        <li key={order.id}>
          <ShopLink href={`/orders/${order.id}`} className="text-brand-700 tabular-nums hover:underline">
            {orderLabel(order)}
          </ShopLink>
          {": "}
          {order.reason === "not_approved" ? t("not_approved", { status: status(order.status ?? "") }) : t(order.reason)}
        </li>
      ))}
    </ul>
  );
}
