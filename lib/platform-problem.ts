// Why a platform call gave no data, and one wording of it for server actions' messages and the
// ProblemNotice of pages alike, in the request's language (messages/<locale>/problems.json).
// Plain module (no server-only): client components use it too.
import type { useTranslations } from "next-intl";
import type { Messages } from "@/messages";

/** Why a platform call gave no data, in the terms the UI explains to the seller. */
export type PlatformProblem =
  | { kind: "reconnect" }
  | { kind: "missing_scope"; scopes: string[] }
  | { kind: "error"; message: string; status: number | null; retryAfterMs?: number; invalidResponse?: boolean };

/** A platform call's data, or why there is none. */
export type PlatformResult<T> = { ok: true; data: T } | { ok: false; problem: PlatformProblem };

/** The "problems" catalogue: `useTranslations("problems")` or `await getTranslations("problems")`. */
export type ProblemWords = ReturnType<typeof useTranslations<"problems">>;
type ProblemCatalogue = Messages["problems"];
/** What a page shows when the platform gives nothing ("your orders", "this price"). */
export type ProblemFeature = keyof ProblemCatalogue["feature"];
/** What the seller was trying to do ("doing.see" needs a feature). */
export type ProblemTask = Exclude<keyof ProblemCatalogue["doing"], "see"> | { see: ProblemFeature };
/** How the advice ends ("then try again", "then resume"). */
export type ProblemNext = Exclude<keyof ProblemCatalogue["then"], "seeAgain"> | { seeAgain: ProblemFeature };

/** The sentence a seller reads for a platform problem, while trying to do `task`. */
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
      // A 4xx carries the platform's own sentence about the request (e.g. "Price not found").
      if (problem.status === null) return t("unreachable", { then: capitalize(then) });
      if (problem.status >= 500) return t("serverError", { then: capitalize(then), status: String(problem.status) });
      return problem.message;
  }
}

const capitalize = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);
