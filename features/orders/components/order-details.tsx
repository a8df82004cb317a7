import { useTranslations } from "next-intl";
import { OrderStatusBadge } from "@/features/orders/components/order-status-badge";
import { DeliveryActions, DeliveryCard, deliveryLinks } from "@/features/orders/components/order-delivery";
import { Facts, Section } from "@/features/orders/components/order-facts";
import { OrderAmounts, OrderPayments } from "@/features/orders/components/order-money";
import { maskDocument } from "@/features/orders/mask-document";
import { phoneNumber } from "@/features/orders/phone-number";
import type { Order } from "@marketplace/api/schemas/order";
import { useDisplayFormat } from "@/lib/format";
import { deadlineOf, shipByOf } from "@/lib/orders/ship-by";
import { orderLabel } from "@/lib/words/order-reference";

interface OrderDetailsProps {
  order: Order;
  reference: number | null;
  /** Whether the person's role sees who bought (decision 0010); the order arrives emptied otherwise. */
  seesCustomers: boolean;
  /** The moment "late" and "today" are judged against. */
  now: Date;
}

/**
 * What the seller acts on comes first — whether it is late, the label — then what was sold and
 * what it pays, then who bought, and the history last (issue 40, a phone's first screen).
 */
export function OrderDetails({ order, reference, seesCustomers, now }: OrderDetailsProps) {
  const t = useTranslations("orders.detail");
  const format = useDisplayFormat();
  const shipBy = shipByOf(order);
  const deadline = deadlineOf(shipBy, now, format.timeZone);

  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <h1 className="min-w-0 text-2xl font-semibold tracking-tight tabular-nums">
            {t("heading", { reference: orderLabel({ id: order.id, reference }) })}
          </h1>
          <OrderStatusBadge status={order.status} />
          {deadline === "late" ? (
            <span className="rounded bg-red-100 px-2 py-0.5 text-sm font-medium text-red-900" data-testid="order-late">
              {t("late")}
            </span>
          ) : null}
        </div>
        <p className="text-sm text-zinc-600">{t("purchasedOn", { date: format.date(order.purchased_at) })}</p>
      </header>

      {shipBy !== null || (seesCustomers && order.deliveries.some(hasLinks)) ? (
        <section
          className={`space-y-3 rounded-lg border p-4 sm:p-5 ${deadline === "late" ? "border-red-300 bg-red-50" : "border-zinc-200 bg-white"}`}
          data-testid="order-next-step"
        >
          {shipBy !== null ? (
            <p className={`text-sm font-medium ${deadline === "late" ? "text-red-900" : ""}`}>
              {t(`nextStep.${deadline ?? "shipBy"}`, { date: format.date(shipBy) })}
            </p>
          ) : null}
          {seesCustomers ? <DeliveryActions deliveries={order.deliveries} /> : null}
        </section>
      ) : null}
      {seesCustomers ? null : (
        <p className="rounded-lg border border-zinc-200 bg-zinc-50 p-4 text-sm" data-testid="customer-hidden">
          {t("customerHidden")}
        </p>
      )}

      {order.deliveries.map((delivery, index) => (
        <DeliveryCard key={delivery.id} delivery={delivery} index={index + 1} seesCustomers={seesCustomers} />
      ))}

      <OrderAmounts amounts={order.amounts} />

      <div className="grid gap-6 lg:grid-cols-2">
        {seesCustomers ? <CustomerFacts customer={order.customer} /> : null}
        <OrderPayments payments={order.payments} />
      </div>

      <Timeline order={order} />

      <p className="text-xs break-all text-zinc-600" data-testid="platform-order-id" data-technical>
        {t.rich("platformId", { id: order.id, mono: (chunks) => <span className="font-mono">{chunks}</span> })}
      </p>
    </div>
  );
}

const hasLinks = (delivery: Order["deliveries"][number]) => {
  const { labelUrl, trackingUrl } = deliveryLinks(delivery);
  return labelUrl !== null || trackingUrl !== null;
};

function CustomerFacts({ customer }: { customer: Order["customer"] }) {
  const t = useTranslations("orders.detail.customer");
  const format = useDisplayFormat();
  return (
    <Section title={t("title")} testId="order-customer">
      <Facts
        rows={[
          [t("name"), customer.name],
          [t("email"), customer.email],
          [
            customer.customer_type.toUpperCase(),
            <span key="doc" className="font-mono">
              {maskDocument(customer.document_number)}
            </span>,
          ],
          // A calendar day, not an instant: noon UTC is that same day in every Brazilian zone.
          [t("birthDate"), format.date(`${customer.birth_date}T12:00:00Z`, "date")],
          [t("phones"), customer.phones.map(phoneNumber).join(", ") || "—"],
        ]}
      />
    </Section>
  );
}

/** In the order things happened (the platform's created_at may come after the purchase); what has not happened yet last. */
function Timeline({ order }: { order: Order }) {
  const t = useTranslations("orders.detail.timeline");
  const format = useDisplayFormat();
  const steps = (
    [
      { label: "purchased", at: order.purchased_at },
      { label: "created", at: order.created_at },
      { label: "approved", at: order.approved_at },
      { label: "updated", at: order.updated_at },
    ] as const
  )
    .map((step, index) => ({ ...step, index, time: step.at ? Date.parse(step.at) : Number.POSITIVE_INFINITY }))
    .sort((a, b) => a.time - b.time || a.index - b.index);
  return (
    <Section title={t("title")} testId="order-timeline">
      <ol className="grid grid-cols-2 gap-4 text-sm sm:flex sm:flex-wrap sm:gap-6">
        {steps.map((step) => (
          <li key={step.label} className={step.at ? "" : "text-zinc-600"}>
            <div className="font-medium">{t(step.label)}</div>
            <time dateTime={step.at ?? undefined}>{step.at ? format.date(step.at) : t("notYet")}</time>
          </li>
        ))}
      </ol>
    </Section>
  );
}
