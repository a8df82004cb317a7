import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { DeliveryStatusBadge, OrderStatusBadge } from "@/features/orders/components/order-status-badge";
import type { Delivery, DeliveryItem, Order, Phone, Shipping } from "@marketplace/api/schemas/order";
import { safeWebUrl } from "@marketplace/api/schemas/common";
import { maskDocument } from "@/features/orders/mask-document";
import { orderNet } from "@/lib/orders/net";
import { useDisplayFormat } from "@/lib/format";
import {
  commissionTypeWord,
  installmentsWord,
  paymentMethodWord,
  pickupMethodWord,
  quantityWord,
  timeLimitWord,
} from "@/lib/words/order-words";

function phone(p: Phone): string {
  return `+${p.country_code} (${p.area_code}) ${p.number}`;
}

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="rounded-lg border border-zinc-200 bg-white p-4 sm:p-5" data-testid={testId}>
      <h2 className="mb-3 text-base font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/** Label and value side by side from `sm` up; on a phone the label sits above its value. */
function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="space-y-2 text-sm sm:grid sm:grid-cols-[minmax(8rem,auto)_minmax(0,1fr)] sm:gap-x-4 sm:gap-y-1.5 sm:space-y-0">
      {rows.map(([label, value]) => (
        <div key={label} className="sm:contents">
          <dt className="text-zinc-600">{label}</dt>
          <dd className="break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function OrderDetails({ order }: { order: Order }) {
  const t = useTranslations("orders.detail");
  const words = useTranslations("words");
  const format = useDisplayFormat();
  const { amounts } = order;
  const money = (value: number, currency = amounts.currency, normalizer = amounts.normalizer) =>
    format.money({ value, currency, normalizer });
  const timeline = [
    { label: "created", at: order.created_at },
    { label: "purchased", at: order.purchased_at },
    { label: "approved", at: order.approved_at },
    { label: "updated", at: order.updated_at },
  ] as const;

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <h1 className="min-w-0 text-2xl font-semibold tracking-tight">
          {t.rich("heading", { id: order.id, mono: (chunks) => <span className="font-mono text-lg break-all sm:text-xl">{chunks}</span> })}
        </h1>
        <OrderStatusBadge status={order.status} />
      </header>

      <Section title={t("timeline.title")} testId="order-timeline">
        <ol className="grid grid-cols-2 gap-4 text-sm sm:flex sm:flex-wrap sm:gap-6">
          {timeline.map((step) => (
            <li key={step.label} className={step.at ? "" : "text-zinc-600"}>
              <div className="font-medium">{t(`timeline.${step.label}`)}</div>
              <time dateTime={step.at ?? undefined}>{step.at ? format.date(step.at) : t("timeline.notYet")}</time>
            </li>
          ))}
        </ol>
      </Section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section title={t("customer.title")} testId="order-customer">
          <Facts
            rows={[
              [t("customer.name"), order.customer.name],
              [t("customer.email"), order.customer.email],
              [
                order.customer.customer_type.toUpperCase(),
                <span key="doc" className="font-mono">
                  {maskDocument(order.customer.document_number)}
                </span>,
              ],
              // A calendar day, not an instant: noon UTC is that same day in every Brazilian zone.
              [t("customer.birthDate"), format.date(`${order.customer.birth_date}T12:00:00Z`, "date")],
              [t("customer.phones"), order.customer.phones.map(phone).join(", ") || "—"],
            ]}
          />
        </Section>

        <Section title={t("amounts.title")} testId="order-amounts">
          <Facts
            rows={[
              [t("amounts.total"), <strong key="total">{money(amounts.total)}</strong>],
              [
                t("amounts.discount"),
                t("amounts.withShared", {
                  amount: money(amounts.discount.total, amounts.discount.currency, amounts.discount.normalizer),
                  shared: money(amounts.discount.shared, amounts.discount.currency, amounts.discount.normalizer),
                }),
              ],
              [
                t("amounts.freight"),
                t("amounts.withShared", {
                  amount: money(amounts.freight.total, amounts.freight.currency, amounts.freight.normalizer),
                  shared: money(amounts.freight.shared, amounts.freight.currency, amounts.freight.normalizer),
                }),
              ],
              [
                t("amounts.commission"),
                <span key="commission" title={amounts.comission.type}>
                  {t("amounts.commissionOf", {
                    amount: money(amounts.comission.total, amounts.comission.currency, amounts.comission.normalizer),
                    type: commissionTypeWord(words, amounts.comission.type),
                  })}
                </span>,
              ],
            ]}
          />
        </Section>
      </div>

      <NetBreakdown amounts={amounts} />

      <Section title={t("payments.title")} testId="order-payments">
        <ul className="space-y-2 text-sm">
          {order.payments.map((payment, index) => (
            <li key={index} className="flex flex-wrap gap-x-4 gap-y-0.5">
              <strong>{format.money({ value: payment.amount, currency: payment.currency, normalizer: payment.normalizer })}</strong>
              <span title={payment.method}>
                {paymentMethodWord(words, payment.method)} · {installmentsWord(words, payment.installments)}
              </span>
              <span>{payment.description}</span>
              <span className="break-all text-zinc-600">{t("payments.gatewayDocument", { document: payment.gateway.document })}</span>
            </li>
          ))}
        </ul>
      </Section>

      {order.deliveries.map((delivery, index) => (
        <DeliveryCard key={delivery.id} delivery={delivery} index={index + 1} />
      ))}
    </div>
  );
}

/**
 * What the seller receives of the order, line by line in the order's currency and normalizer
 * (lib/orders/net.ts), so the lines add up exactly; an estimate, and the page says so.
 */
function NetBreakdown({ amounts }: { amounts: Order["amounts"] }) {
  const t = useTranslations("orders.detail.net");
  const format = useDisplayFormat();
  const net = orderNet(amounts);
  const money = (value: number) => format.money({ value, currency: amounts.currency, normalizer: amounts.normalizer });
  const line = "flex flex-wrap items-baseline justify-between gap-x-4";
  return (
    <Section title={t("title")} testId="order-net">
      {net ? (
        <dl className="max-w-md space-y-1.5 text-sm tabular-nums">
          <div className={line}>
            <dt className="text-zinc-600">{t("total")}</dt>
            <dd>{money(net.total)}</dd>
          </div>
          <div className={line}>
            <dt className="text-zinc-600">{t("commission")}</dt>
            <dd data-testid="net-commission">{t("minus", { amount: money(net.commission) })}</dd>
          </div>
          <div className={line}>
            <dt className="text-zinc-600">{t("sellerFreight")}</dt>
            <dd data-testid="net-seller-freight">{t("minus", { amount: money(net.sellerFreight) })}</dd>
          </div>
          <div className={`${line} border-t border-zinc-200 pt-1.5 font-semibold`}>
            <dt>{t("net")}</dt>
            <dd data-testid="net-value">{money(net.net)}</dd>
          </div>
        </dl>
      ) : (
        <p className="text-sm">{t("unknown")}</p>
      )}
      <p className="mt-3 text-xs text-zinc-600">{t("explanation")}</p>
    </Section>
  );
}

function DeliveryCard({ delivery, index }: { delivery: Delivery; index: number }) {
  const t = useTranslations("orders.detail.delivery");
  const words = useTranslations("words");
  const { shipping } = delivery;
  // Only http(s) addresses from the platform become links.
  const labelUrl = safeWebUrl(shipping.labels.url);
  const trackingUrl = safeWebUrl(shipping.tracking.url);
  // What the seller comes for on a phone: full-width buttons right under the heading.
  const action = "flex min-h-11 items-center justify-center rounded-md px-4 text-center text-sm font-medium break-words sm:py-2";
  return (
    <section className="space-y-4 rounded-lg border border-zinc-200 bg-white p-4 sm:p-5" data-testid="order-delivery">
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 className="text-base font-semibold">{t("title", { index })}</h2>
        <DeliveryStatusBadge status={delivery.status} />
        <span className="font-mono text-xs break-all text-zinc-600">{delivery.id}</span>
      </header>
      {labelUrl || trackingUrl ? (
        <div className="flex flex-col gap-2 sm:flex-row">
          {labelUrl ? (
            <a href={labelUrl} className={`${action} bg-brand-700 text-white hover:bg-brand-900`} target="_blank" rel="noreferrer">
              {t("downloadLabel")}
            </a>
          ) : null}
          {trackingUrl ? (
            <a
              href={trackingUrl}
              className={`${action} border border-zinc-300 text-brand-700 hover:bg-zinc-50`}
              target="_blank"
              rel="noreferrer"
            >
              {words("shipping.trackParcel", { number: shipping.tracking.number })}
            </a>
          ) : null}
        </div>
      ) : null}
      <ul className="divide-y divide-zinc-100">
        {delivery.items.map((item) => (
          <ItemRow key={item.sequencial} item={item} />
        ))}
      </ul>
      <ShippingFacts shipping={shipping} />
    </section>
  );
}

function ItemRow({ item }: { item: DeliveryItem }) {
  const t = useTranslations("orders.detail.delivery");
  const words = useTranslations("words");
  const format = useDisplayFormat();
  const { info } = item;
  const dims = info.dimensions;
  const unit = format.money({ value: item.unit_price.value, currency: item.unit_price.currency, normalizer: item.unit_price.normalizer });
  const lineTotal = format.money({
    value: item.unit_price.value * item.quantity,
    currency: item.unit_price.currency,
    normalizer: item.unit_price.normalizer,
  });
  // Only http(s) addresses from the platform become images or links.
  const image = safeWebUrl(info.images[0]);
  return (
    // On a phone the price goes under the description, beside the picture's column.
    <li className="grid grid-cols-[4rem_minmax(0,1fr)] gap-x-4 gap-y-2 py-3 text-sm sm:grid-cols-[4rem_minmax(0,1fr)_auto]">
      {image ? (
        // Images come from the platform's own hosts; next/image would need every host configured.
        // eslint-disable-next-line @next/next/no-img-element
        <img
          src={image}
          alt={info.name}
          width={64}
          height={64}
          className="h-16 w-16 shrink-0 rounded border border-zinc-200 object-cover"
        />
      ) : (
        <div className="h-16 w-16 shrink-0 rounded bg-zinc-100" aria-hidden="true" />
      )}
      <div className="min-w-0 space-y-1">
        <div className="font-medium">
          {item.sequencial}. {info.name}
        </div>
        <div className="break-words text-zinc-600">
          {t.rich("sku", { sku: info.sku, mono: (chunks) => <span className="font-mono break-all">{chunks}</span> })}
          {info.attributes.length > 0 ? ` · ${info.attributes.map((a) => `${a.name}: ${a.value}`).join(", ")}` : ""}
        </div>
        <div className="text-zinc-600">
          {dims.height.value} {dims.height.unit} × {dims.width.value} {dims.width.unit} × {dims.length.value} {dims.length.unit},{" "}
          {dims.weight.value} {dims.weight.unit}
        </div>
      </div>
      <div className="col-start-2 tabular-nums sm:col-start-auto sm:text-right">
        <div title={item.measure_unit}>
          {quantityWord(words, item.quantity, item.measure_unit)} × {unit}
        </div>
        <div className="font-medium">{lineTotal}</div>
      </div>
    </li>
  );
}

function ShippingFacts({ shipping }: { shipping: Shipping }) {
  const t = useTranslations("orders.detail.delivery");
  const words = useTranslations("words");
  const format = useDisplayFormat();
  const { recipient, pickup_details: pickup } = shipping;
  const address = recipient.address;
  const limit = (term: Shipping["deadline"]) => timeLimitWord(words, term, format.date(term.limit_date));
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Facts
        rows={[
          [
            t("tracking"),
            <span key="t" className="font-mono break-all">
              {shipping.tracking.number || "—"}
            </span>,
          ],
          [t("labelRequested"), format.date(shipping.labels.requested_at)],
          [t("posted"), format.date(shipping.posting_date)],
          [t("delivered"), format.date(shipping.delivery_date)],
          [t("handlingTime"), limit(shipping.handling_time)],
          [t("deadline"), limit(shipping.deadline)],
        ]}
      />
      <div className="space-y-4">
        <Facts
          rows={[
            [t("recipient"), `${recipient.name} (${recipient.email})`],
            [
              t("address"),
              <address
                key="a"
                className="not-italic"
                data-testid="delivery-address"
              >{`${address.street}, ${address.number}${address.complement ? `, ${address.complement}` : ""} — ${address.district}, ${address.city}/${address.state}, ${address.zipcode}, ${address.country}`}</address>,
            ],
            [t("reference"), address.reference || "—"],
            [t("phones"), recipient.phones.map(phone).join(", ") || "—"],
          ]}
        />
        <Facts
          rows={[
            [
              t("pickup"),
              <span
                key="p"
                title={pickup.method}
              >{`${pickupMethodWord(words, pickup.method)} · ${pickup.company_name || pickup.agency_company}`}</span>,
            ],
            [t("agency"), `${pickup.agency_company} ${pickup.agency_id}`.trim()],
            [
              t("pickupAddress"),
              `${pickup.address}, ${pickup.number}${pickup.complement ? `, ${pickup.complement}` : ""} — ${pickup.district}, ${pickup.city}/${pickup.state}, ${pickup.postal_code}`,
            ],
            [t("contact"), [pickup.email, pickup.phone].filter(Boolean).join(" · ") || "—"],
            [t("location"), `${pickup.latitude}, ${pickup.longitude}`],
          ]}
        />
      </div>
    </div>
  );
}
