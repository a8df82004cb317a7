import type { ReactNode } from "react";
import { OrderStatusBadge } from "@/components/orders/order-status-badge";
import type { Delivery, DeliveryItem, Order, Phone, Shipping } from "@/lib/marketplace/schemas/order";
import { safeWebUrl } from "@/lib/marketplace/schemas/common";
import { maskDocument } from "@/lib/orders/mask-document";
import { formatDate, formatMoney } from "@/lib/format";


function when(value: string | null): string {
  return formatDate(value);
}

function phone(p: Phone): string {
  return `+${p.country_code} (${p.area_code}) ${p.number}`;
}

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="rounded-lg border border-zinc-200 bg-white p-5" data-testid={testId}>
      <h2 className="mb-3 text-base font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-1.5 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-zinc-500">{label}</dt>
          <dd className="break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function OrderDetails({ order }: { order: Order }) {
  const { amounts } = order;
  const money = (value: number, currency = amounts.currency, normalizer = amounts.normalizer) => formatMoney({ value, currency, normalizer });
  const timeline: { label: string; at: string | null }[] = [
    { label: "Created", at: order.created_at },
    { label: "Purchased", at: order.purchased_at },
    { label: "Approved", at: order.approved_at },
    { label: "Last updated", at: order.updated_at },
  ];

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">
          Order <span className="font-mono text-xl">{order.id}</span>
        </h1>
        <OrderStatusBadge status={order.status} />
      </header>

      <Section title="Timeline" testId="order-timeline">
        <ol className="flex flex-wrap gap-6 text-sm">
          {timeline.map((step) => (
            <li key={step.label} className={step.at ? "" : "text-zinc-400"}>
              <div className="font-medium">{step.label}</div>
              <time dateTime={step.at ?? undefined}>{step.at ? when(step.at) : "not yet"}</time>
            </li>
          ))}
        </ol>
      </Section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section title="Customer" testId="order-customer">
          <Facts
            rows={[
              ["Name", order.customer.name],
              ["E-mail", order.customer.email],
              [order.customer.customer_type.toUpperCase(), <span key="doc" className="font-mono">{maskDocument(order.customer.document_number)}</span>],
              ["Birth date", formatDate(`${order.customer.birth_date}T12:00:00Z`, "date")],
              ["Phones", order.customer.phones.map(phone).join(", ") || "—"],
            ]}
          />
        </Section>

        <Section title="Amounts" testId="order-amounts">
          <Facts
            rows={[
              ["Total", <strong key="total">{money(amounts.total)}</strong>],
              ["Discount", `${money(amounts.discount.total, amounts.discount.currency, amounts.discount.normalizer)} (shared ${money(amounts.discount.shared, amounts.discount.currency, amounts.discount.normalizer)})`],
              ["Freight", `${money(amounts.freight.total, amounts.freight.currency, amounts.freight.normalizer)} (shared ${money(amounts.freight.shared, amounts.freight.currency, amounts.freight.normalizer)})`],
              ["Commission", `${money(amounts.comission.total, amounts.comission.currency, amounts.comission.normalizer)} (${amounts.comission.type})`],
            ]}
          />
        </Section>
      </div>

      <Section title="Payments" testId="order-payments">
        <ul className="space-y-2 text-sm">
          {order.payments.map((payment, index) => (
            <li key={index} className="flex flex-wrap gap-x-4">
              <strong>{formatMoney({ value: payment.amount, currency: payment.currency, normalizer: payment.normalizer })}</strong>
              <span>{payment.method}</span>
              <span>{payment.description}</span>
              <span>
                {payment.installments} installment{payment.installments === 1 ? "" : "s"}
              </span>
              <span className="text-zinc-500">gateway document {payment.gateway.document}</span>
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

function DeliveryCard({ delivery, index }: { delivery: Delivery; index: number }) {
  const { shipping } = delivery;
  return (
    <section className="space-y-4 rounded-lg border border-zinc-200 bg-white p-5" data-testid="order-delivery">
      <header className="flex flex-wrap items-baseline gap-3">
        <h2 className="text-base font-semibold">Delivery {index}</h2>
        <span className="font-mono text-xs text-zinc-500">{delivery.id}</span>
        <span className="rounded bg-zinc-100 px-2 py-0.5 text-xs">{delivery.status}</span>
      </header>
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
  const { info } = item;
  const dims = info.dimensions;
  const unit = formatMoney({ value: item.unit_price.value, currency: item.unit_price.currency, normalizer: item.unit_price.normalizer });
  const lineTotal = formatMoney({ value: item.unit_price.value * item.quantity, currency: item.unit_price.currency, normalizer: item.unit_price.normalizer });
  // Only http(s) addresses from the platform become images or links.
  const image = safeWebUrl(info.images[0]);
  return (
    <li className="flex gap-4 py-3 text-sm">
      {image ? (
        // Images come from the platform's own hosts; next/image would need every host configured.
        // eslint-disable-next-line @next/next/no-img-element
        <img src={image} alt={info.name} width={64} height={64} className="h-16 w-16 shrink-0 rounded border border-zinc-200 object-cover" />
      ) : (
        <div className="h-16 w-16 shrink-0 rounded bg-zinc-100" aria-hidden="true" />
      )}
      <div className="min-w-0 flex-1 space-y-1">
        <div className="font-medium">
          {item.sequencial}. {info.name}
        </div>
        <div className="text-zinc-500">
          SKU <span className="font-mono">{info.sku}</span>
          {info.attributes.length > 0 ? ` · ${info.attributes.map((a) => `${a.name}: ${a.value}`).join(", ")}` : ""}
        </div>
        <div className="text-zinc-500">
          {dims.height.value} {dims.height.unit} × {dims.width.value} {dims.width.unit} × {dims.length.value} {dims.length.unit}, {dims.weight.value}{" "}
          {dims.weight.unit}
        </div>
      </div>
      <div className="shrink-0 text-right tabular-nums">
        <div>
          {item.quantity} {item.measure_unit} × {unit}
        </div>
        <div className="font-medium">{lineTotal}</div>
      </div>
    </li>
  );
}

function ShippingFacts({ shipping }: { shipping: Shipping }) {
  const { recipient, pickup_details: pickup } = shipping;
  const address = recipient.address;
  const limit = (t: Shipping["deadline"]) => `${t.value} ${t.precision}${t.workday ? " (working days)" : ""}, by ${when(t.limit_date)}`;
  const trackingUrl = safeWebUrl(shipping.tracking.url);
  const labelUrl = safeWebUrl(shipping.labels.url);
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Facts
        rows={[
          ["Tracking", trackingUrl ? <a key="t" href={trackingUrl} className="text-brand-700 hover:underline" target="_blank" rel="noreferrer">{shipping.tracking.number}</a> : shipping.tracking.number || "—"],
          ["Label", labelUrl ? <a key="l" href={labelUrl} className="text-brand-700 hover:underline" target="_blank" rel="noreferrer">Download label</a> : "—"],
          ["Label requested", when(shipping.labels.requested_at)],
          ["Posted", when(shipping.posting_date)],
          ["Delivered", when(shipping.delivery_date)],
          ["Handling time", limit(shipping.handling_time)],
          ["Deadline", limit(shipping.deadline)],
        ]}
      />
      <div className="space-y-4">
        <Facts
          rows={[
            ["Recipient", `${recipient.name} (${recipient.email})`],
            ["Address", <address key="a" className="not-italic" data-testid="delivery-address">{`${address.street}, ${address.number}${address.complement ? `, ${address.complement}` : ""} — ${address.district}, ${address.city}/${address.state}, ${address.zipcode}, ${address.country}`}</address>],
            ["Reference", address.reference || "—"],
            ["Phones", recipient.phones.map(phone).join(", ") || "—"],
          ]}
        />
        <Facts
          rows={[
            ["Pickup", `${pickup.method} · ${pickup.company_name || pickup.agency_company}`],
            ["Agency", `${pickup.agency_company} ${pickup.agency_id}`.trim()],
            ["Pickup address", `${pickup.address}, ${pickup.number}${pickup.complement ? `, ${pickup.complement}` : ""} — ${pickup.district}, ${pickup.city}/${pickup.state}, ${pickup.postal_code}`],
            ["Contact", [pickup.email, pickup.phone].filter(Boolean).join(" · ") || "—"],
            ["Location", `${pickup.latitude}, ${pickup.longitude}`],
          ]}
        />
      </div>
    </div>
  );
}
