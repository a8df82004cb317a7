import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { describeConnectError as describeIn, knownConnectErrorCode } from "./connect-errors";
import type { ConnectWords } from "./connect-errors";

const words = (locale: "en" | "pt-BR") =>
  createTranslator({ locale, messages: catalogues[locale] as Messages, namespace: "connect" }) as unknown as ConnectWords;
const english = words("en");
const describeConnectError = (error: string | undefined, stage: string | undefined) => describeIn(error, stage, english);

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

  it("explains Auth.js's own errors", () => {
    expect(describeConnectError("AccessDenied", undefined)).toEqual(describeConnectError("access_denied", "authorize"));
    expect(describeConnectError("OAuthCallbackError", undefined).title).toBe("The sign-in could not be verified");
  });

  it("falls back to a generic message for unknown or missing codes", () => {
    expect(describeConnectError("made_up", "authorize").title).toBe("Connecting your account failed");
    expect(describeConnectError(undefined, undefined).title).toBe("Connecting your account failed");
    expect(describeConnectError("Configuration", undefined).title).toBe("Connecting your account failed");
    expect(describeConnectError("toString", "authorize").title).toBe("Connecting your account failed");
  });

  it("says it in Portuguese", () => {
    const portuguese = words("pt-BR");
    expect(describeIn("access_denied", "authorize", portuguese)).toEqual({
      title: "O acesso não foi concedido",
      description:
        "A conexão foi recusada, ou sua conta do marketplace não tem plano PRO. Só vendedores PRO podem conectar integrações: confira seu plano no marketplace, depois tente novamente e escolha Aprovar.",
    });
    expect(describeIn("http_502", "token", portuguese).title).toBe("Não foi possível falar com o marketplace");
    expect(describeIn("made_up", "authorize", portuguese).title).toBe("A conexão da sua conta falhou");
    expect(describeIn("invalid_client", "token", portuguese).description).toMatch(/MARKETPLACE_CLIENT_SECRET/);
  });
});

describe("knownConnectErrorCode", () => {
  it("shows only codes the page knows, never text from the URL", () => {
    expect(knownConnectErrorCode("access_denied", "authorize")).toBe("access_denied");
    expect(knownConnectErrorCode("http_502", "token")).toBe("http_502");
    expect(knownConnectErrorCode("identity_conflict", "profile")).toBe("identity_conflict");
    expect(knownConnectErrorCode("OAuthCallbackError", undefined)).toBe("OAuthCallbackError");
    expect(knownConnectErrorCode("Call +55 11 5555-0000 to fix your account", "authorize")).toBeNull();
    expect(knownConnectErrorCode("__proto__", "authorize")).toBeNull();
    expect(knownConnectErrorCode("__proto__", undefined)).toBeNull();
    expect(knownConnectErrorCode(undefined, undefined)).toBeNull();
  });
});

describe("a profile without a usable e-mail, or another account's", () => {
  it("tells the seller why, on the connect error page", () => {
    expect(describeConnectError("invalid_response", "profile").title).toMatch(/no usable e-mail/);
    expect(describeConnectError("identity_conflict", "profile").title).toMatch(/already connected/);
    expect(describeConnectError("person_conflict", "profile").title).toMatch(/already signs in here for another account/);
  });
});
