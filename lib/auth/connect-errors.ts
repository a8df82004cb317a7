// Which catalogue entry (connect.json `errors.<stage>.<code>`) a failed connection reads.
import type { useTranslations } from "next-intl";
import type { Messages } from "@/messages";

export interface ConnectErrorMessage {
  title: string;
  description: string;
}

export type ConnectWords = ReturnType<typeof useTranslations<"connect">>;

type Errors = Messages["connect"]["errors"];
export type ConnectErrorKey =
  | `authorize.${keyof Errors["authorize"] & string}`
  | `token.${keyof Errors["token"] & string}`
  | `profile.${keyof Errors["profile"] & string}`
  | `authJs.${keyof Errors["authJs"] & string}`
  | "unavailable"
  | "fallback";

// `satisfies` ties each code to its catalogue entry.
const AUTHORIZE = [
  "access_denied",
  "invalid_scope",
  "temporarily_unavailable",
  "server_error",
  "invalid_request",
  "unauthorized_client",
  "unsupported_response_type",
] as const satisfies readonly (keyof Errors["authorize"])[];
const TOKEN = [
  "invalid_grant",
  "invalid_client",
  "invalid_request",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
] as const satisfies readonly (keyof Errors["token"])[];
const PROFILE = [
  "forbidden",
  "unauthorized",
  "invalid_response",
  "identity_conflict",
  "person_conflict",
] as const satisfies readonly (keyof Errors["profile"])[];
/** Auth.js's error types: a denial reads as the platform's access_denied, a misconfiguration as the generic failure. */
const AUTH_JS: Record<string, ConnectErrorKey> = {
  AccessDenied: "authorize.access_denied",
  OAuthCallbackError: "authJs.OAuthCallbackError",
  Configuration: "fallback",
};

const isOneOf = <T extends string>(codes: readonly T[], code: string): code is T => (codes as readonly string[]).includes(code);

/** Only a known code: the URL is anyone's to write, and its text must not read as the dashboard's. */
export function knownConnectErrorCode(error: string | undefined, stage: string | undefined): string | null {
  if (!error) return null;
  const known =
    stage === "authorize"
      ? isOneOf(AUTHORIZE, error)
      : stage === "token"
        ? isOneOf(TOKEN, error)
        : stage === "profile"
          ? isOneOf(PROFILE, error)
          : Object.hasOwn(AUTH_JS, error);
  if (known) return error;
  return stage === "token" && /^http_\d{3}$/.test(error) ? error : null;
}

export function connectErrorKey(error: string | undefined, stage: string | undefined): ConnectErrorKey {
  if (!error) return "fallback";
  if (stage === "authorize") return isOneOf(AUTHORIZE, error) ? `authorize.${error}` : "fallback";
  if (stage === "token") return isOneOf(TOKEN, error) ? `token.${error}` : error.startsWith("http_5") ? "unavailable" : "fallback";
  if (stage === "profile") return isOneOf(PROFILE, error) ? `profile.${error}` : "unavailable";
  return Object.hasOwn(AUTH_JS, error) ? AUTH_JS[error]! : "fallback";
}

export function describeConnectError(error: string | undefined, stage: string | undefined, t: ConnectWords): ConnectErrorMessage {
  const key = connectErrorKey(error, stage);
  return { title: t(`errors.${key}.title`), description: t(`errors.${key}.description`) };
}
