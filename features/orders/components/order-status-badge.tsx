import { useTranslations } from "next-intl";
import type { OrderStatus } from "@marketplace/api/schemas/order";
import { deliveryStatusWord, orderStatusWord } from "@/lib/words/order-words";

const STYLES: Record<OrderStatus, string> = {
  new: "bg-sky-100 text-sky-900",
  approved: "bg-brand-100 text-brand-900",
  cancelled: "bg-zinc-200 text-zinc-700",
  finished: "bg-violet-100 text-violet-900",
};

const BADGE = "inline-block rounded px-2 py-0.5 text-xs font-medium";

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const t = useTranslations("words");
  return (
    <span className={`${BADGE} ${STYLES[status]}`} data-testid="order-status">
      {orderStatusWord(t, status)}
    </span>
  );
}

/** A delivery's state in words; its code stays in the tooltip for an integrator. */
export function DeliveryStatusBadge({ status }: { status: string }) {
  const t = useTranslations("words");
  const colours = status === "delivered" ? "bg-brand-100 text-brand-900" : "bg-zinc-100 text-zinc-800";
  return (
    <span className={`${BADGE} ${colours}`} title={status} data-testid="delivery-status">
      {deliveryStatusWord(t, status)}
    </span>
  );
}
