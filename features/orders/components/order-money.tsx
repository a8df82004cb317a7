import { useTranslations } from "next-intl";
import { Facts, Section } from "@/features/orders/components/order-facts";
import type { Order } from "@marketplace/api/schemas/order";
import { orderNet } from "@/lib/orders/net";
import { useDisplayFormat } from "@/lib/format";
import { commissionTypeWord, installmentsWord, paymentMethodWord } from "@/lib/words/order-words";

export function OrderAmounts({ amounts }: { amounts: Order["amounts"] }) {
  const t = useTranslations("orders.detail");
  const words = useTranslations("words");
  const format = useDisplayFormat();
  const money = (value: number, currency = amounts.currency, normalizer = amounts.normalizer) =>
    format.money({ value, currency, normalizer });
  return (
    <div className="grid gap-6 lg:grid-cols-2">
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
      <NetBreakdown amounts={amounts} />
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

/** One line per payment, in words: amount, method, instalments (the platform's own description and gateway reference add nothing a seller reads). */
export function OrderPayments({ payments }: { payments: Order["payments"] }) {
  const t = useTranslations("orders.detail");
  const words = useTranslations("words");
  const format = useDisplayFormat();
  return (
    <Section title={t("payments.title")} testId="order-payments">
      <ul className="space-y-2 text-sm">
        {payments.map((payment, index) => (
          <li key={index} className="flex flex-wrap gap-x-3 gap-y-0.5">
            <strong className="tabular-nums">
              {format.money({ value: payment.amount, currency: payment.currency, normalizer: payment.normalizer })}
            </strong>
            <span title={payment.method}>
              {paymentMethodWord(words, payment.method)} · {installmentsWord(words, payment.installments)}
            </span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
