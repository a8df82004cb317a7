import { ShopLink } from "@/components/shop-link";
import { useTranslations } from "next-intl";
import { RefreshWhile } from "@/features/webhooks/components/refresh-while";
import type { ConnectionHealth } from "@/features/webhooks/connection-health.server";
import { useDisplayFormat } from "@/lib/format";
import type { DisplayFormat } from "@/lib/format";
import { describeProblem } from "@/lib/platform-problem";

type WebhookWords = ReturnType<typeof useTranslations<"webhooks">>;

function backfillText(backfill: ConnectionHealth["backfill"], t: WebhookWords, format: DisplayFormat): string {
  const since = { hasFrom: backfill.from ? "yes" : "no", from: format.date(backfill.from) };
  switch (backfill.state) {
    case "running":
      return t("health.backfillRunning", { ...since, orders: format.count(backfill.orders) });
    case "done":
      return t("health.backfillDone", {
        ...since,
        orders: backfill.orders,
        hasFinished: backfill.finishedAt ? "yes" : "no",
        finishedAt: format.date(backfill.finishedAt),
      });
    case "failed":
      return t("health.backfillFailed", { orders: backfill.orders });
    default:
      return t("health.backfillIdle");
  }
}

/**
 * The seller's connection at a glance: when a notification last arrived, what waits, what is
 * dead, and what reconciliation found that no notification told (features/webhooks/sync/reconcile.server.ts).
 */
export function ConnectionHealthPanel({ health }: { health: ConnectionHealth }) {
  const t = useTranslations("webhooks");
  const problems = useTranslations("problems");
  const format = useDisplayFormat();
  const when = (date: Date | null) => (date ? format.date(date) : t("health.never"));
  const facts: [string, React.ReactNode][] = [
    [t("health.lastNotification"), when(health.lastEventAt)],
    [t("health.waiting"), format.count(health.waiting)],
    [
      t("health.dead"),
      health.dead === 0 ? (
        format.count(0)
      ) : (
        <ShopLink href="/webhooks/events?processing=dead" className="font-medium text-red-800 hover:underline">
          {t("health.reviewDead", { count: format.count(health.dead) })}
        </ShopLink>
      ),
    ],
    [
      t("health.lastReconciliation"),
      health.lastReconciledAt
        ? t("health.reconciled", {
            when: when(health.lastReconciledAt),
            recovered: health.lastRecovered,
            total: format.count(health.recoveredTotal),
          })
        : t("health.notYet"),
    ],
    [t("health.nextCheck"), health.nextReconcileAt ? format.date(health.nextReconcileAt) : t("health.nextCheckSoon")],
    [t("health.orderMirror"), backfillText(health.backfill, t, format)],
  ];
  if (health.behindMinutes !== null) {
    facts.push([
      t("health.behind"),
      <span key="behind" className="text-amber-900" data-testid="reconcile-behind">
        {t("health.behindValue", { minutes: health.behindMinutes })}
      </span>,
    ]);
  }
  const failure = health.lastError;
  if (failure) {
    const text =
      "problem" in failure ? describeProblem(failure.problem, problems, "checkOrders", "waitForReconciliation") : failure.message;
    facts.push([
      t("health.lastError"),
      <span key="error" className="text-red-800">
        {text}
      </span>,
    ]);
  }
  if (health.otherShops.count > 0) {
    facts.push([
      t("health.otherShops"),
      <span key="other-shops" className="text-amber-900" data-testid="other-shops">
        {t("health.otherShopsValue", { count: health.otherShops.count, when: when(health.otherShops.lastAt) })}
      </span>,
    ]);
  }
  return (
    <section aria-labelledby="connection-health" className="rounded-lg border border-zinc-200 bg-white p-4">
      <RefreshWhile active={health.backfill.state === "running"} />
      <h2 id="connection-health" className="mb-3 text-base font-semibold">
        {t("health.title")}
      </h2>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-zinc-600">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
