// Pure, so the rules are tested without a clock or a platform (decision 0004).
import type { PlatformProblem } from "@/lib/platform/platform.server";

export type AttemptFailure = { retry: true; error: string; retryAfterSeconds?: number } | { retry: false; error: string };

/** A dead token, a missing scope or a 404 cannot heal by retrying: the seller acts first. */
export function classifyProblem(problem: PlatformProblem): AttemptFailure {
  switch (problem.kind) {
    case "reconnect":
      return { retry: false, error: "The marketplace no longer accepts the connection: reconnect, then process again" };
    case "missing_scope":
      return {
        retry: false,
        error: `The connection lacks the scope ${problem.scopes.join(", ")}: reconnect granting it, then process again`,
      };
    case "error": {
      const status = problem.status;
      const error = status === null ? problem.message : `HTTP ${status}: ${problem.message}`;
      if (status === 404) return { retry: false, error: `Not found on the marketplace (${error})` };
      if (status === null || status === 429 || status >= 500 || problem.invalidResponse) {
        return problem.retryAfterMs === undefined
          ? { retry: true, error }
          : { retry: true, error, retryAfterSeconds: problem.retryAfterMs / 1000 };
      }
      return { retry: false, error };
    }
  }
}
