// One wording of a platform problem for actions and pages alike; client components use it too.
import type { useTranslations } from "next-intl";
import type { Messages } from "@/messages";

export type PlatformProblem =
  | { kind: "reconnect" }
  | { kind: "missing_scope"; scopes: string[] }
  | { kind: "error"; message: string; status: number | null; retryAfterMs?: number; invalidResponse?: boolean };

export type PlatformResult<T> = { ok: true; data: T } | { ok: false; problem: PlatformProblem };

export type ProblemWords = ReturnType<typeof useTranslations<"problems">>;
type ProblemCatalogue = Messages["problems"];
export type ProblemFeature = keyof ProblemCatalogue["feature"];
export type ProblemTask = Exclude<keyof ProblemCatalogue["doing"], "see"> | { see: ProblemFeature };
export type ProblemNext = Exclude<keyof ProblemCatalogue["then"], "seeAgain"> | { seeAgain: ProblemFeature };

export function describeProblem(problem: PlatformProblem, t: ProblemWords, task: ProblemTask, next: ProblemNext = "tryAgain"): string {
  const then = typeof next === "string" ? t(`then.${next}`) : t("then.seeAgain", { feature: t(`feature.${next.seeAgain}`) });
  switch (problem.kind) {
    case "reconnect":
      return t("reconnect", { then });
    case "missing_scope": {
      const doing = typeof task === "string" ? t(`doing.${task}`) : t("doing.see", { feature: t(`feature.${task.see}`) });
      return t("missingScope", { doing, then, scopes: problem.scopes.join(", "), count: problem.scopes.length });
    }
    case "error":
      // Any other 4xx carries the platform's own sentence about the request (e.g. "Price not found").
      if (problem.status === null) return t("unreachable", { then: capitalize(then) });
      if (problem.status === 429) {
        const seconds = Math.max(1, Math.ceil((problem.retryAfterMs ?? 60_000) / 1000));
        return t("rateLimited", { then: capitalize(then), seconds });
      }
      if (problem.status >= 500) return t("serverError", { then: capitalize(then), status: String(problem.status) });
      return problem.message;
  }
}

const capitalize = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);
