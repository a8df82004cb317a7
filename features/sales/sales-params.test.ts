import { describe, expect, it } from "vitest";
import { choiceQuery, rankingOf, salesChoiceOf } from "./sales-params";

describe("salesChoiceOf", () => {
  it("reads a preset or a range of whole days, and the last 30 days otherwise", () => {
    expect(salesChoiceOf({})).toEqual({ choice: { preset: "30d" }, invalid: false });
    expect(salesChoiceOf({ period: "month" })).toEqual({ choice: { preset: "month" }, invalid: false });
    expect(salesChoiceOf({ from: "2026-11-01", to: "2026-11-30" })).toEqual({
      choice: { from: "2026-11-01", to: "2026-11-30" },
      invalid: false,
    });
  });

  it("says so when the address asked for something it cannot read", () => {
    expect(salesChoiceOf({ from: "2026-11-30", to: "2026-11-01" })).toEqual({ choice: { preset: "30d" }, invalid: true });
    expect(salesChoiceOf({ period: "year" })).toEqual({ choice: { preset: "30d" }, invalid: true });
    expect(salesChoiceOf({ from: "ontem", to: "2026-11-01" })).toEqual({ choice: { preset: "30d" }, invalid: true });
  });

  it("writes the choice back as the CSV link's query", () => {
    expect(choiceQuery({ preset: "7d" })).toBe("period=7d");
    expect(choiceQuery({ from: "2026-11-01", to: "2026-11-02" })).toBe("from=2026-11-01&to=2026-11-02");
  });
});

describe("rankingOf", () => {
  it("ranks by revenue unless units or margin is asked, and the ranking is no period", () => {
    expect(rankingOf({ by: "margin" })).toBe("margin");
    expect(rankingOf({ by: "lucro" })).toBe("revenue");
    expect(salesChoiceOf({ period: "7d", by: "units" })).toEqual({ choice: { preset: "7d" }, invalid: false });
  });
});
