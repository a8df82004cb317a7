import { describe, expect, it } from "vitest";
import { isKnownScope, parseScopeParameter, scopeAppliesTo, SCOPES } from "./scopes";

describe("scope catalogue", () => {
  it("holds the twelve scopes of the spec", () => {
    expect(SCOPES).toHaveLength(12);
  });

  it("is case sensitive", () => {
    expect(isKnownScope("portfolio:read")).toBe(true);
    expect(isKnownScope("Portfolio:read")).toBe(false);
  });

  it("knows which application types a scope applies to", () => {
    expect(scopeAppliesTo("order-order:read", "autos")).toBe(false);
    expect(scopeAppliesTo("order-order:read", "marketplace")).toBe(true);
    expect(scopeAppliesTo("autoupload", "marketplace")).toBe(false);
    expect(scopeAppliesTo("basic_user_info", "real_estate")).toBe(true);
  });

  it("parses space-separated scope parameters and rejects malformed ones", () => {
    expect(parseScopeParameter("a b a")).toEqual(["a", "b"]);
    expect(parseScopeParameter("a  b")).toBeNull();
    expect(parseScopeParameter(" a")).toBeNull();
    expect(parseScopeParameter("")).toBeNull();
    expect(parseScopeParameter('a"b')).toBeNull();
  });
});
