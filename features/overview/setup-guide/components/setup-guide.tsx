import { useTranslations } from "next-intl";
import { Suspense } from "react";
import type { ShopAccess } from "@/lib/auth/session.server";
import { can } from "@/lib/people/roles";
import type { Role } from "@/lib/people/roles";
import { HideGuideButton } from "@/features/overview/setup-guide/components/hide-guide-button";
import { InstalledAppRecorder } from "@/features/overview/setup-guide/components/installed-app-recorder";
import { SetupStepItem } from "@/features/overview/setup-guide/components/setup-step";
import { loadSetupSteps, setupGuideState } from "@/features/overview/setup-guide/setup-guide.server";
import { doneCount, SETUP_GUIDE_CAPABILITY } from "@/features/overview/setup-guide/setup-steps";
import type { SetupStep } from "@/features/overview/setup-guide/setup-steps";

// The overview's first-run checklist (issue 40, point 13; Shopify's setup guide is the model): four
// steps of a good setup, each ticked by what the shop's people actually did, until an owner or a
// manager hides it for the shop.

function SetupGuidePanel({ steps, role }: { steps: SetupStep[]; role: Role }) {
  const t = useTranslations("overview.setupGuide");
  const done = doneCount(steps);
  const allDone = done === steps.length;
  return (
    <section
      aria-labelledby="setup-guide-title"
      data-testid="setup-guide"
      className="rounded-lg border border-zinc-200 bg-white p-4 sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        {/* On a phone the button goes below the words rather than squeezing them. */}
        <div className="min-w-0 grow basis-64">
          <h2 id="setup-guide-title" className="text-lg font-semibold">
            {allDone ? t("doneTitle") : t("title")}
          </h2>
          <p className="mt-1 text-sm text-zinc-600">{allDone ? t("doneText", { total: steps.length }) : t("intro")}</p>
        </div>
        <HideGuideButton />
      </div>
      <p className="mt-3 text-sm font-medium" data-testid="setup-progress">
        {t("progress", { done, total: steps.length })}
      </p>
      <div aria-hidden="true" className="mt-2 h-2 overflow-hidden rounded-full bg-zinc-100">
        <div className="h-2 rounded-full bg-brand-600" style={{ width: `${(done / steps.length) * 100}%` }} />
      </div>
      <ol className="mt-2 divide-y divide-zinc-100">
        {steps.map((step) => (
          <SetupStepItem key={step.name} step={step} role={role} />
        ))}
      </ol>
    </section>
  );
}

async function LoadedSetupGuide({ access }: { access: ShopAccess }) {
  const { shop, role } = access;
  const state = await setupGuideState(shop.id);
  if (state.dismissed) return null;
  // Anyone of the shop may be the one who installs the app; only owners and managers see the guide.
  const recorder = state.appOpened ? null : <InstalledAppRecorder shopId={shop.id} />;
  if (!can(role, SETUP_GUIDE_CAPABILITY)) return recorder;
  const steps = await loadSetupSteps(shop);
  return (
    <>
      {recorder}
      <SetupGuidePanel steps={steps} role={role} />
    </>
  );
}

/** Streams in after the rest of the overview: counting the best sellers may ask the platform. */
export function SetupGuide({ access }: { access: ShopAccess }) {
  return (
    <Suspense fallback={null}>
      <LoadedSetupGuide access={access} />
    </Suspense>
  );
}
