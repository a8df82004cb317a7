// When a failed processing attempt is tried again, and when it stops being tried (the event is
// then dead: shown in the event log with its last error, processed again only on request).
// Pure, so the rules are tested without a clock or a platform.
import type { PlatformProblem } from "@/lib/data/platform";

export interface RetryPolicy {
  maxAttempts: number;
  baseSeconds: number;
  capSeconds: number;
}

export type AttemptFailure =
  | { retry: true; error: string; retryAfterSeconds?: number }
  | { retry: false; error: string };

/**
 * Whether a platform problem can heal by itself. Unavailable (5xx, network, timeout), rate-limited
 * (429 / statusCode -2) and unexpected answers are tried again; a token that no longer works, a
 * missing scope or a resource the platform does not know (404) are not: retrying cannot change
 * them, and the seller acts first (reconnects), then processes the dead events again.
 */
export function classifyProblem(problem: PlatformProblem): AttemptFailure {
  switch (problem.kind) {
    case "reconnect":
      return { retry: false, error: "The marketplace no longer accepts the connection: reconnect, then process again" };
    case "missing_scope":
      return { retry: false, error: `The connection lacks the scope ${problem.scopes.join(", ")}: reconnect granting it, then process again` };
    case "error": {
      const status = problem.status;
      const error = status === null ? problem.message : `HTTP ${status}: ${problem.message}`;
      if (status === 404) return { retry: false, error: `Not found on the marketplace (${error})` };
      if (status === null || status === 429 || status >= 500 || problem.invalidResponse) {
        return problem.retryAfterMs === undefined ? { retry: true, error } : { retry: true, error, retryAfterSeconds: problem.retryAfterMs / 1000 };
      }
      return { retry: false, error };
    }
  }
}

/**
 * Seconds until attempt `attempt + 1`, after `attempt` attempts failed: exponential from
 * `baseSeconds`, capped, with "equal jitter" (between half and all of it) so that events that failed
 * together do not all come back together. A Retry-After the platform sent is honoured: never
 * sooner than it asked. Null when no attempt is left: the event is dead.
 */
export function nextAttemptDelaySeconds(
  policy: RetryPolicy,
  attempt: number,
  retryAfterSeconds: number | undefined,
  random: () => number = Math.random,
): number | null {
  if (attempt >= policy.maxAttempts) return null;
  const exponential = Math.min(policy.capSeconds, policy.baseSeconds * 2 ** (attempt - 1));
  const jittered = exponential / 2 + (exponential / 2) * random();
  return retryAfterSeconds === undefined ? jittered : Math.max(retryAfterSeconds, jittered);
}
