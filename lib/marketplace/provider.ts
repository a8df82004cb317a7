// The platform as an Auth.js OAuth provider (spec: Authentication, Endpoints 1–3).
//
// Platform quirks handled here:
// - The token endpoint takes exactly five form fields and rejects anything else, so no PKCE
//   (`checks: ["state"]`; Auth.js then drops the code_verifier it would otherwise send) and
//   client_secret_post authentication.
// - The token response has only access_token and token_type: no expiry, no refresh token, no
//   id_token, so this is a plain `oauth` provider (not OIDC) and the token lives until revoked.
// - basic_user_info is a POST and has no user id, so the e-mail is the account id.
import type { OAuthConfig } from "next-auth/providers";
import { customFetch } from "next-auth";
import { createMarketplaceClient } from "./client";
import { MarketplaceError } from "./errors";
import { normalizeEmail, tokenErrorResponseSchema } from "./schemas/oauth";
import type { BasicUserInfo } from "./schemas/oauth";

export const MARKETPLACE_PROVIDER_ID = "marketplace";

export const AUTHORIZATION_PATH = "/auth/integradores/oauth";
export const TOKEN_PATH = "/v1.0/integradores/oauth/token";

export interface MarketplaceProviderOptions {
  authUrl: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Space-separated scope values (case sensitive). */
  scopes: string;
  /**
   * Told why the callback failed: the platform's `error` of a failed token exchange, or the kind
   * of failure of the basic_user_info call (e.g. `forbidden` when basic_user_info was not granted).
   */
  onCallbackError?: (failure: { stage: "token" | "profile"; error: string }) => void;
  fetch?: typeof fetch;
}

export function marketplaceProvider(options: MarketplaceProviderOptions): OAuthConfig<BasicUserInfo> {
  const baseFetch = options.fetch ?? fetch;
  const tokenUrl = `${options.baseUrl}${TOKEN_PATH}`;

  // Auth.js turns any token-endpoint failure into a generic "Configuration" error; the platform's
  // own `error` (invalid_grant, invalid_client, ...) is read here, before that happens.
  const observingFetch: typeof fetch = async (input, init) => {
    const response = await baseFetch(input, init);
    const url = input instanceof Request ? input.url : String(input);
    if (!response.ok && url === tokenUrl && options.onCallbackError) {
      const body = await response
        .clone()
        .json()
        .catch(() => null);
      const parsed = tokenErrorResponseSchema.safeParse(body);
      options.onCallbackError({ stage: "token", error: parsed.success ? parsed.data.error : `http_${response.status}` });
    }
    return response;
  };

  return {
    id: MARKETPLACE_PROVIDER_ID,
    name: "Marketplace",
    type: "oauth",
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    authorization: {
      url: `${options.authUrl}${AUTHORIZATION_PATH}`,
      params: { response_type: "code", scope: options.scopes },
    },
    token: { url: tokenUrl },
    userinfo: {
      url: `${options.baseUrl}/v1.0/integradores/basic_user_info`,
      async request({ tokens }: { tokens: { access_token?: string } }) {
        if (!tokens.access_token) throw new Error("The token response carried no access_token");
        const client = createMarketplaceClient({
          baseUrl: options.baseUrl,
          accessToken: tokens.access_token,
          fetch: baseFetch,
        });
        try {
          return await client.getBasicUserInfo();
        } catch (error) {
          options.onCallbackError?.({ stage: "profile", error: error instanceof MarketplaceError ? error.kind : "unavailable" });
          throw error;
        }
      },
    },
    profile(profile) {
      return { id: normalizeEmail(profile.user_email), name: profile.user_name, email: normalizeEmail(profile.user_email) };
    },
    [customFetch]: observingFetch,
  };
}
