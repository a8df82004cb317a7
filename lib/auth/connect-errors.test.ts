import { describe, expect, it } from "vitest";
import { describeConnectError, knownConnectErrorCode } from "./connect-errors";

describe("describeConnectError", () => {
  it("explains access_denied as declined or no PRO plan", () => {
    const message = describeConnectError("access_denied", "authorize");
    expect(message.description).toMatch(/declined/);
    expect(message.description).toMatch(/PRO plan/);
  });

  it.each([
    ["invalid_scope", /permissions/],
    ["temporarily_unavailable", /temporarily unavailable/i],
    ["server_error", /unexpected problem/],
    ["invalid_request", /invalid or incomplete/],
    ["unauthorized_client", /does not allow/],
    ["unsupported_response_type", /not supported/],
  ])("explains the authorization error %s", (error, pattern) => {
    const { title, description } = describeConnectError(error, "authorize");
    expect(`${title} ${description}`).toMatch(pattern);
  });

  it.each([
    ["invalid_grant", /expired/],
    ["invalid_client", /MARKETPLACE_CLIENT_SECRET/],
    ["invalid_request", /malformed/],
    ["unauthorized_client", /exchange/],
    ["unsupported_grant_type", /not supported/],
    ["invalid_scope", /permissions/],
  ])("explains the token-exchange error %s", (error, pattern) => {
    const { title, description } = describeConnectError(error, "token");
    expect(`${title} ${description}`).toMatch(pattern);
  });

  it("tells the same code apart by stage", () => {
    expect(describeConnectError("invalid_request", "token")).not.toEqual(describeConnectError("invalid_request", "authorize"));
  });

  it("explains a refused basic_user_info and an unreachable platform", () => {
    expect(describeConnectError("forbidden", "profile").description).toMatch(/basic_user_info/);
    expect(describeConnectError("unavailable", "profile").title).toMatch(/could not be reached/);
    expect(describeConnectError("http_503", "token").title).toMatch(/could not be reached/);
  });

  it("falls back to a generic message for unknown or missing codes", () => {
    expect(describeConnectError("made_up", "authorize").title).toBe("Connecting your account failed");
    expect(describeConnectError(undefined, undefined).title).toBe("Connecting your account failed");
    expect(describeConnectError("Configuration", undefined).title).toBe("Connecting your account failed");
  });
});

describe("knownConnectErrorCode", () => {
  it("shows only codes the page knows, never text from the URL", () => {
    expect(knownConnectErrorCode("access_denied", "authorize")).toBe("access_denied");
    expect(knownConnectErrorCode("http_502", "token")).toBe("http_502");
    expect(knownConnectErrorCode("identity_conflict", "profile")).toBe("identity_conflict");
    expect(knownConnectErrorCode("Call +55 11 5555-0000 to fix your account", "authorize")).toBeNull();
    expect(knownConnectErrorCode("__proto__", "authorize")).toBeNull();
    expect(knownConnectErrorCode(undefined, undefined)).toBeNull();
  });
});
