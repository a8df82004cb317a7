// Retries with exponential backoff and equal jitter: the webhook queue's (decision 0004) and the
// notification outbox's (issue 41). Pure, so the rules are tested without a clock.

export interface RetryPolicy {
  maxAttempts: number;
  baseSeconds: number;
  capSeconds: number;
}

/**
 * Equal jitter, so events that failed together do not come back together; never sooner than a
 * Retry-After. Null when no attempt is left: the work is dead (an event, a notification).
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
