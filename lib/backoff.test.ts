import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nextAttemptDelaySeconds } from "./backoff";
import type { RetryPolicy } from "./backoff";

const policy: RetryPolicy = { maxAttempts: 8, baseSeconds: 10, capSeconds: 1_800 };

describe("nextAttemptDelaySeconds", () => {
  it("doubles from the base with jitter between half and all of it, capped", () => {
    expect(nextAttemptDelaySeconds(policy, 1, undefined, () => 0)).toBe(5);
    expect(nextAttemptDelaySeconds(policy, 1, undefined, () => 1)).toBe(10);
    expect(nextAttemptDelaySeconds(policy, 3, undefined, () => 1)).toBe(40);
    expect(nextAttemptDelaySeconds({ ...policy, maxAttempts: 50 }, 20, undefined, () => 1)).toBe(1_800);
  });

  it("gives up after the last attempt: the event is dead", () => {
    expect(nextAttemptDelaySeconds(policy, 8, undefined)).toBeNull();
    expect(nextAttemptDelaySeconds(policy, 7, undefined)).not.toBeNull();
  });

  it("never retries sooner than a Retry-After the platform sent", () => {
    expect(nextAttemptDelaySeconds(policy, 1, 120, () => 0.5)).toBe(120);
    expect(nextAttemptDelaySeconds(policy, 5, 1, () => 1)).toBe(160);
  });

  it("stays within [half, all] of the capped exponential for any attempt, draw and Retry-After", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: policy.maxAttempts - 1 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.option(fc.double({ min: 0, max: 3_600, noNaN: true }), { nil: undefined }),
        (attempt, draw, retryAfter) => {
          const delay = nextAttemptDelaySeconds(policy, attempt, retryAfter, () => draw)!;
          const exponential = Math.min(policy.capSeconds, policy.baseSeconds * 2 ** (attempt - 1));
          expect(delay).toBeGreaterThanOrEqual(Math.max(exponential / 2, retryAfter ?? 0));
          expect(delay).toBeLessThanOrEqual(Math.max(exponential, retryAfter ?? 0));
        },
      ),
    );
  });
});
