// The authorization flow's refusals, checked without credentials (spec: Endpoints 1 and 2;
// Errors → Authorization request errors, Token exchange errors).
import { randomBytes } from "node:crypto";
import { describeZodFailure } from "@marketplace/api/errors";
import { tokenErrorResponseSchema } from "@marketplace/api/schemas/oauth";
import { describeExchange, requestLine, type Exchange } from "../http";
import { ensure, fail, skip, type Check, type Kit } from "../kit";

// Endpoint 1 (on {auth_url}) and endpoint 2 (on {base_url}). lib/auth/marketplace-provider.ts names
// them too, but it is the dashboard's Auth.js provider and imports next-auth.
export const AUTHORIZATION_PATH = "/auth/integradores/oauth";
export const TOKEN_PATH = "/v1.0/integradores/oauth/token";

/** A redirect URI no platform has registered: being sent there is the failure. */
const NOWHERE = "https://conformance.invalid/callback";

function unknownClientId(): string {
  return `conformance-kit-${randomBytes(6).toString("hex")}`;
}

async function authorize(kit: Kit, query: [string, string][]): Promise<string> {
  if (!kit.options.authUrl) skip("no --auth-url given");
  const exchange = await kit.api({ host: "auth", path: AUTHORIZATION_PATH, query, token: null });
  const location = exchange.headers.get("location");
  const target = location ? new URL(location, exchange.url).toString() : "";
  // "If redirect_uri or client_id is missing or invalid, the user is not redirected."
  ensure(!target.startsWith(NOWHERE), `${requestLine(exchange)} redirected to the redirect_uri (${target})`);
  return `answered ${exchange.status} without redirecting to redirect_uri`;
}

function tokenError(exchange: Exchange): string {
  ensure(exchange.status === 400, describeExchange(exchange));
  const body = tokenErrorResponseSchema.safeParse(exchange.json);
  if (!body.success) fail(`${requestLine(exchange)} answered 400 without the spec's {error}: ${describeZodFailure(body.error)}`);
  return body.data.error;
}

export const oauthChecks: readonly Check[] = [
  {
    name: "oauth.authorize.missing-client-id",
    run: (kit) =>
      authorize(kit, [
        ["response_type", "code"],
        ["redirect_uri", NOWHERE],
        ["scope", "basic_user_info"],
        ["state", "conformance"],
      ]),
  },
  {
    name: "oauth.authorize.unknown-client-id",
    run: (kit) =>
      authorize(kit, [
        ["response_type", "code"],
        ["client_id", unknownClientId()],
        ["redirect_uri", NOWHERE],
        ["scope", "basic_user_info"],
        ["state", "conformance"],
      ]),
  },
  {
    name: "oauth.token.missing-fields",
    run: async (kit) => {
      const exchange = await kit.api({ method: "POST", path: TOKEN_PATH, form: [["grant_type", "authorization_code"]], token: null });
      const error = tokenError(exchange);
      // "invalid_request: Missing required parameter".
      ensure(
        error === "invalid_request",
        `${requestLine(exchange)} without code, client_id, client_secret and redirect_uri answered error ${error}; expected invalid_request`,
      );
      return "answered 400 {error: invalid_request}";
    },
  },
  {
    name: "oauth.token.unknown-client",
    run: async (kit) => {
      const exchange = await kit.api({
        method: "POST",
        path: TOKEN_PATH,
        form: [
          ["code", "conformance-unknown-code"],
          ["client_id", unknownClientId()],
          ["client_secret", "conformance-unknown-secret"],
          ["redirect_uri", NOWHERE],
          ["grant_type", "authorization_code"],
        ],
        token: null,
      });
      // The spec does not order its checks: invalid_client (unknown client) and invalid_grant
      // (unknown code) are both right answers.
      return `answered 400 {error: ${tokenError(exchange)}}`;
    },
  },
];
