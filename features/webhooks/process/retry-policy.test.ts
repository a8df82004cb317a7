import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyProblem, nextAttemptDelaySeconds } from "./retry-policy";
import type { RetryPolicy } from "./retry-policy";

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

describe("classifyProblem", () => {
  it("retries what can heal by itself", () => {
    expect(classifyProblem({ kind: "error", message: "boom", status: 500 })).toMatchObject({ retry: true });
    expect(classifyProblem({ kind: "error", message: "unreachable", status: null })).toMatchObject({ retry: true });
    expect(classifyProblem({ kind: "error", message: "slow down", status: 429, retryAfterMs: 30_000 })).toEqual({
      retry: true,
      error: "HTTP 429: slow down",
      retryAfterSeconds: 30,
    });
    expect(classifyProblem({ kind: "error", message: "odd shape", status: 200, invalidResponse: true })).toMatchObject({ retry: true });
  });

  it("does not retry what only the seller can fix, or what does not exist", () => {
    expect(classifyProblem({ kind: "reconnect" })).toMatchObject({ retry: false });
    expect(classifyProblem({ kind: "missing_scope", scopes: ["order-order:read"] })).toMatchObject({
      retry: false,
      error: expect.stringContaining("order-order:read"),
    });
    expect(classifyProblem({ kind: "error", message: "no such order", status: 404 })).toMatchObject({ retry: false });
    expect(classifyProblem({ kind: "error", message: "bad", status: 400 })).toMatchObject({ retry: false });
  });
});
