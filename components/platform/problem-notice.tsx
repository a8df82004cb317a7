import { ConnectButton } from "@/components/auth/connect-button";
import type { PlatformProblem } from "@/lib/platform-problem";
import { describeProblem } from "@/lib/platform-problem";

/** Explains why a feature shows no data, with the one action that fixes it. */
export function ProblemNotice({ problem, feature }: { problem: PlatformProblem; feature: string }) {
  if (problem.kind === "reconnect") {
    return (
      <Notice title="Your marketplace connection needs renewing">
        <p>{describeProblem(problem, `see ${feature}`, `see ${feature} again`)}</p>
        <ConnectButton>Reconnect</ConnectButton>
      </Notice>
    );
  }
  if (problem.kind === "missing_scope") {
    const scopes = problem.scopes.join(" and ");
    return (
      <Notice title={`Reconnect and grant ${scopes}`}>
        <p>{describeProblem(problem, `see ${feature}`, `keep it checked on the marketplace's consent page`)}</p>
        <ConnectButton>Reconnect and grant {scopes}</ConnectButton>
      </Notice>
    );
  }
  return (
    <Notice title={`The marketplace could not return ${feature}`} tone="error">
      <p>{describeProblem(problem, `see ${feature}`)}</p>
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
