// Why a platform call gave no data, and one wording of it for server actions' messages and the
// ProblemNotice of pages alike. Plain module (no server-only): client components use it too.

/** Why a platform call gave no data, in the terms the UI explains to the seller. */
export type PlatformProblem =
  | { kind: "reconnect" }
  | { kind: "missing_scope"; scopes: string[] }
  | { kind: "error"; message: string; status: number | null; retryAfterMs?: number; invalidResponse?: boolean };

/** A platform call's data, or why there is none. */
export type PlatformResult<T> = { ok: true; data: T } | { ok: false; problem: PlatformProblem };

/**
 * The sentence a seller reads for a platform problem, while trying to `doing` (e.g. "change
 * prices"). `then` ends the advice ("try again", "resume").
 */
export function describeProblem(problem: PlatformProblem, doing: string, then = "try again"): string {
  switch (problem.kind) {
    case "reconnect":
      return `The marketplace no longer accepts this dashboard's access (it expired or was revoked). Reconnect, then ${then}.`;
    case "missing_scope":
      return `To ${doing}, the ${problem.scopes.join(" and ")} permission is needed, and it was not granted. Reconnect and grant it, then ${then}.`;
    case "error":
      if (problem.status === null) return `The marketplace could not be reached. ${capitalize(then)} in a moment.`;
      if (problem.status >= 500) return `The marketplace had a server error (HTTP ${problem.status}). ${capitalize(then)} in a moment.`;
      return problem.message;
  }
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
