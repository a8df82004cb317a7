import { describe, expect, it } from "vitest";
import { describeProblem } from "./platform-problem";

describe("describeProblem", () => {
  it("tells the seller what to do for each kind of problem", () => {
    expect(describeProblem({ kind: "reconnect" }, "change prices")).toBe(
      "The marketplace no longer accepts this dashboard's access (it expired or was revoked). Reconnect, then try again.",
    );
    expect(describeProblem({ kind: "missing_scope", scopes: ["portfolio:write"] }, "set prices", "resume")).toBe(
      "To set prices, the portfolio:write permission is needed, and it was not granted. Reconnect and grant it, then resume.",
    );
    expect(describeProblem({ kind: "error", message: "boom", status: 503 }, "see your orders")).toBe("The marketplace had a server error (HTTP 503). Try again in a moment.");
    expect(describeProblem({ kind: "error", message: "fetch failed", status: null }, "see your orders", "resume")).toBe("The marketplace could not be reached. Resume in a moment.");
    expect(describeProblem({ kind: "error", message: "Price not found", status: 404 }, "see the price")).toBe("Price not found");
  });
});
