import { useTranslations } from "next-intl";
import { DeliveryStatusBadge } from "@/features/orders/components/order-status-badge";
import { Facts } from "@/features/orders/components/order-facts";
import { phoneNumber } from "@/features/orders/phone-number";
import type { Delivery, DeliveryItem, Shipping } from "@marketplace/api/schemas/order";
import { safeWebUrl } from "@marketplace/api/schemas/common";
import { useDisplayFormat } from "@/lib/format";
import { pickupMethodWord, quantityWord, timeLimitWord } from "@/lib/words/order-words";

const ACTION = "flex min-h-11 items-center justify-center rounded-md px-4 text-center text-sm font-medium break-words sm:py-2";

/** A delivery's label and tracking addresses; only http(s) ones from the platform become links. */
export function deliveryLinks(delivery: Delivery): { labelUrl: string | null; trackingUrl: string | null } {
  return { labelUrl: safeWebUrl(delivery.shipping.labels.url), trackingUrl: safeWebUrl(delivery.shipping.tracking.url) };
}

/** The label and the tracking of each delivery: what the seller comes to the order for, at its top. */
export function DeliveryActions({ deliveries }: { deliveries: readonly Delivery[] }) {
  const t = useTranslations("orders.detail.delivery");
  const words = useTranslations("words");
  const links = deliveries.flatMap((delivery, index) => {
    const { labelUrl, trackingUrl } = deliveryLinks(delivery);
    const several = deliveries.length > 1;
    return [
      labelUrl ? (
        <a
          key={`label-${delivery.id}`}
          href={labelUrl}
          className={`${ACTION} bg-brand-700 text-white hover:bg-brand-900`}
          target="_blank"
          rel="noreferrer"
        >
          {several ? t("downloadLabelOf", { index: index + 1 }) : t("downloadLabel")}
        </a>
      ) : null,
      trackingUrl ? (
        <a
          key={`tracking-${delivery.id}`}
          href={trackingUrl}
          className={`${ACTION} border border-zinc-300 bg-white text-brand-700 hover:bg-zinc-50`}
          target="_blank"
          rel="noreferrer"
        >
          {words("shipping.trackParcel", { number: delivery.shipping.tracking.number })}
        </a>
      ) : null,
    ].filter((link) => link !== null);
  });
  return links.length > 0 ? <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">{links}</div> : null;
}

export function DeliveryCard({ delivery, index, seesCustomers }: { delivery: Delivery; index: number; seesCustomers: boolean }) {
  const t = useTranslations("orders.detail.delivery");
  return (
    <section className="space-y-4 rounded-lg border border-zinc-200 bg-white p-4 sm:p-5" data-testid="order-delivery">
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 className="text-base font-semibold">{t("title", { index })}</h2>
        <DeliveryStatusBadge status={delivery.status} />
      </header>
      <ul className="divide-y divide-zinc-100">
        {delivery.items.map((item) => (
          <ItemRow key={item.sequencial} item={item} />
        ))}
      </ul>
      <ShippingFacts shipping={delivery.shipping} seesCustomers={seesCustomers} />
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
  const measure = (dimension: { value: number; unit: string }) => `${format.count(dimension.value)} ${dimension.unit}`;
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
        <div className="text-zinc-600" data-testid="item-size">
          {t("size", {
            height: measure(dims.height),
            width: measure(dims.width),
            length: measure(dims.length),
            weight: measure(dims.weight),
          })}
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

function ShippingFacts({ shipping, seesCustomers }: { shipping: Shipping; seesCustomers: boolean }) {
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
          [t("handlingTime"), limit(shipping.handling_time)],
          [t("deadline"), limit(shipping.deadline)],
          [
            t("tracking"),
            <span key="t" className="font-mono break-all">
              {shipping.tracking.number || "—"}
            </span>,
          ],
          [t("labelRequested"), format.date(shipping.labels.requested_at)],
          [t("posted"), format.date(shipping.posting_date)],
          [t("delivered"), format.date(shipping.delivery_date)],
        ]}
      />
      <div className="space-y-4">
        {seesCustomers ? (
          <Facts
            rows={[
              [t("recipient"), recipient.email ? `${recipient.name} (${recipient.email})` : recipient.name],
              [
                t("address"),
                <address
                  key="a"
                  className="not-italic"
                  data-testid="delivery-address"
                >{`${address.street}, ${address.number}${address.complement ? `, ${address.complement}` : ""} — ${address.district}, ${address.city}/${address.state}, ${address.zipcode}`}</address>,
              ],
              [t("reference"), address.reference || "—"],
              [t("phones"), recipient.phones.map(phoneNumber).join(", ") || "—"],
            ]}
          />
        ) : null}
        <Facts
          rows={[
            [
              t("pickup"),
              <span
                key="p"
                title={pickup.method}
              >{`${pickupMethodWord(words, pickup.method)} · ${pickup.company_name || pickup.agency_company}`}</span>,
            ],
            [
              t("pickupAddress"),
              `${pickup.address}, ${pickup.number}${pickup.complement ? `, ${pickup.complement}` : ""} — ${pickup.district}, ${pickup.city}/${pickup.state}, ${pickup.postal_code}`,
            ],
            [t("contact"), [pickup.email, pickup.phone].filter(Boolean).join(" · ") || "—"],
          ]}
        />
      </div>
    </div>
  );
}
