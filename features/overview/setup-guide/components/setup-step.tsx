import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { ShopLink } from "@/components/shop-link";
import { useDisplayFormat } from "@/lib/format";
import { can } from "@/lib/people/roles";
import type { Role } from "@/lib/people/roles";
import type { SetupStep } from "@/features/overview/setup-guide/setup-steps";

type GuideWords = ReturnType<typeof useTranslations<"overview.setupGuide">>;

const LINK = "inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline-offset-2 hover:underline md:min-h-6";
const bold = (chunks: ReactNode) => <b className="font-semibold">{chunks}</b>;
const nowrap = (chunks: ReactNode) => <span className="whitespace-nowrap">{chunks}</span>;

function Mark({ done }: { done: boolean }) {
  return done ? (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" fill="currentColor">
      <path d="M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16Zm3.7-9.3-4 4a1 1 0 0 1-1.4 0l-2-2a1 1 0 1 1 1.4-1.4L9 10.6l3.3-3.3a1 1 0 0 1 1.4 1.4Z" />
    </svg>
  ) : (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className="mt-0.5 h-5 w-5 shrink-0 text-zinc-500"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
    >
      <circle cx="10" cy="10" r="7.25" strokeDasharray="3 2.5" />
    </svg>
  );
}

/** What the step needs next and where it is done, or who can do it. */
function Next({ allowed, href, label, t }: { allowed: boolean; href: string; label: string; t: GuideWords }) {
  return allowed ? (
    <ShopLink href={href} className={LINK}>
      {label} →
    </ShopLink>
  ) : (
    <p className="text-sm text-zinc-600">{t("ownerOnly")}</p>
  );
}

function NotificationsBody({ step, role, t }: { step: Extract<SetupStep, { name: "notifications" }>; role: Role; t: GuideWords }) {
  const format = useDisplayFormat();
  if (step.done) return <p>{t("steps.notifications.done", { when: format.date(step.lastNotificationAt) })}</p>;
  // Set to come here: only the first notification is missing, and nothing is left for the seller to do.
  if (step.callback === "here") return <p>{t("steps.notifications.waiting")}</p>;
  return (
    <>
      <p>{t(`steps.notifications.${step.callback}`)}</p>
      <Next allowed={can(role, "webhooks.manage")} href="/webhooks" label={t("steps.notifications.action")} t={t} />
    </>
  );
}

function CostsBody({ step, t }: { step: Extract<SetupStep, { name: "costs" }>; t: GuideWords }) {
  const next = step.done ? null : <Next allowed href="/prices/products" label={t("steps.costs.action")} t={t} />;
  if (step.state === "unknown") return <p>{t("steps.costs.unknown")}</p>;
  if (step.state === "noSales") {
    return (
      <>
        <p>{t(step.done ? "steps.costs.noSalesDone" : "steps.costs.noSales")}</p>
        {next}
      </>
    );
  }
  const count = step.bestSellers.length;
  if (step.done) return <p>{t("steps.costs.done", { count })}</p>;
  return (
    <>
      <p data-testid="missing-costs">{t("steps.costs.missing", { missing: step.missing.length, count })}</p>
      <ul className="flex flex-wrap gap-x-4">
        {step.missing.map((product) => (
          <li key={product.sku} className="min-w-0">
            <ShopLink href={`/prices/products?search=${encodeURIComponent(product.sku)}`} className={`${LINK} break-words`}>
              {/* One span, so the link's flex lays the words out as text: a long name wraps on a phone, never the code. */}
              <span>{product.name ? t.rich("steps.costs.product", { name: product.name, code: product.sku, nowrap }) : product.sku}</span>
            </ShopLink>
          </li>
        ))}
      </ul>
      <p className="text-zinc-600">{t("steps.costs.why")}</p>
      {next}
    </>
  );
}

function TeamBody({ step, role, t }: { step: Extract<SetupStep, { name: "team" }>; role: Role; t: GuideWords }) {
  if (step.state === "team") return <p>{t("steps.team.team", { count: step.members })}</p>;
  if (step.state === "invited") return <p>{t("steps.team.invited")}</p>;
  return (
    <>
      <p>{t("steps.team.alone")}</p>
      <Next allowed={can(role, "members.manage")} href="/members" label={t("steps.team.action")} t={t} />
    </>
  );
}

function PhoneBody({ step, t }: { step: Extract<SetupStep, { name: "phone" }>; t: GuideWords }) {
  if (step.done) return <p>{t("steps.phone.done")}</p>;
  return (
    <>
      <p>{t("steps.phone.todo")}</p>
      <details className="group">
        <summary className="inline-flex min-h-11 cursor-pointer items-center text-sm font-medium text-brand-700 md:min-h-6">
          {t("steps.phone.how")}
        </summary>
        <ul className="mt-1 list-disc space-y-1 pl-5">
          <li>{t.rich("steps.phone.iphone", { b: bold })}</li>
          <li>{t.rich("steps.phone.android", { b: bold })}</li>
        </ul>
        <p className="mt-1 text-zinc-600">{t("steps.phone.then")}</p>
      </details>
    </>
  );
}

/** One step of the guide: a mark, its name (with "done" or "to do" for screen readers too), and what it needs. */
export function SetupStepItem({ step, role }: { step: SetupStep; role: Role }) {
  const t = useTranslations("overview.setupGuide");
  const body =
    step.name === "notifications" ? (
      <NotificationsBody step={step} role={role} t={t} />
    ) : step.name === "costs" ? (
      <CostsBody step={step} t={t} />
    ) : step.name === "team" ? (
      <TeamBody step={step} role={role} t={t} />
    ) : (
      <PhoneBody step={step} t={t} />
    );
  return (
    <li className="flex gap-3 py-3" data-testid={`setup-step-${step.name}`} data-done={step.done}>
      <Mark done={step.done} />
      <div className="min-w-0 flex-1 space-y-1 text-sm text-zinc-800">
        <h3 className="flex flex-wrap items-center gap-x-2 font-medium text-zinc-900">
          {t(`steps.${step.name}.title`)}
          {step.done ? (
            <span className="rounded-full bg-brand-50 px-2 text-xs font-medium text-brand-900">{t("done")}</span>
          ) : (
            <span className="sr-only">({t("todo")})</span>
          )}
        </h3>
        {body}
      </div>
    </li>
  );
}
