import { describe, expect, it } from "vitest";
import { classifyProblem } from "./retry-policy";

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
