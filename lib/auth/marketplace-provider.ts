// Spec: Authentication, Endpoints 1–3. The token endpoint rejects any field beyond its five, so no
// PKCE and client_secret_post. Its answer has no expiry, refresh or id_token: plain `oauth`, not
// OIDC. basic_user_info has no user id, so the e-mail is the account id.
import type { OAuthConfig } from "next-auth/providers";
import { customFetch } from "next-auth";
import { createMarketplaceClient } from "@marketplace/api/client";
import { MarketplaceError } from "@marketplace/api/errors";
import { normalizeEmail, tokenErrorResponseSchema } from "@marketplace/api/schemas/oauth";
import type { BasicUserInfo } from "@marketplace/api/schemas/oauth";

export const MARKETPLACE_PROVIDER_ID = "marketplace";

export const AUTHORIZATION_PATH = "/auth/integradores/oauth";
export const TOKEN_PATH = "/v1.0/integradores/oauth/token";

export interface MarketplaceProviderOptions {
  authUrl: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  /** The platform's `error` of a failed token exchange, or the kind of a basic_user_info failure. */
  onCallbackError?: (failure: { stage: "token" | "profile"; error: string }) => void;
  fetch?: typeof fetch;
}

export function marketplaceProvider(options: MarketplaceProviderOptions): OAuthConfig<BasicUserInfo> {
  const baseFetch = options.fetch ?? fetch;
  const tokenUrl = `${options.baseUrl}${TOKEN_PATH}`;

  // Auth.js turns any token failure into a generic "Configuration" error: read the platform's first.
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
