import { useTranslations } from "next-intl";
import type { OrderStatus } from "@/lib/marketplace/schemas/order";

const STYLES: Record<OrderStatus, string> = {
  new: "bg-sky-100 text-sky-900",
  approved: "bg-brand-100 text-brand-900",
  cancelled: "bg-zinc-200 text-zinc-700",
  finished: "bg-violet-100 text-violet-900",
};

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const t = useTranslations("orders.statuses");
  return <span className={`rounded px-2 py-0.5 text-xs font-medium ${STYLES[status]}`}>{t(status)}</span>;
}
