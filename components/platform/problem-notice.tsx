import { useTranslations } from "next-intl";
import { ConnectButton } from "@/components/auth/connect-button";
import { describeProblem } from "@/lib/platform-problem";
import type { PlatformProblem, ProblemFeature } from "@/lib/platform-problem";

/** Explains why a feature shows no data, with the one action that fixes it. */
export function ProblemNotice({ problem, feature }: { problem: PlatformProblem; feature: ProblemFeature }) {
  const t = useTranslations("problems");
  if (problem.kind === "reconnect") {
    return (
      <Notice title={t("notice.renewTitle")}>
        <p>{describeProblem(problem, t, { see: feature }, { seeAgain: feature })}</p>
        <ConnectButton>{t("notice.reconnect")}</ConnectButton>
      </Notice>
    );
  }
  if (problem.kind === "missing_scope") {
    const scopes = problem.scopes.join(", ");
    return (
      <Notice title={t("notice.grantTitle", { scopes })}>
        <p>{describeProblem(problem, t, { see: feature }, "keepChecked")}</p>
        <ConnectButton>{t("notice.grantButton", { scopes })}</ConnectButton>
      </Notice>
    );
  }
  return (
    <Notice title={t("notice.errorTitle", { feature: t(`feature.${feature}`) })} tone="error">
      <p>{describeProblem(problem, t, { see: feature })}</p>
    </Notice>
  );
}

function Notice({ title, tone = "warning", children }: { title: string; tone?: "warning" | "error"; children: React.ReactNode }) {
  const colors = tone === "error" ? "border-red-200 bg-red-50" : "border-amber-200 bg-amber-50";
  return (
    <section role="alert" className={`space-y-3 rounded-lg border p-5 text-sm text-zinc-800 ${colors}`}>
      <h2 className="text-base font-semibold text-zinc-900">{title}</h2>
      {children}
    </section>
  );
}
