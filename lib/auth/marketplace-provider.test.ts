import { customFetch } from "next-auth";
import { describe, expect, it } from "vitest";
import { marketplaceProvider } from "./marketplace-provider";

const options = {
  authUrl: "https://auth.example",
  baseUrl: "https://api.example",
  clientId: "client-1",
  clientSecret: "secret-1",
  scopes: "basic_user_info order-order:read",
};

function recordingFetch(respond: (url: string, init?: RequestInit) => Response) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    calls.push({ url, init });
    return respond(url, init);
  }) as typeof fetch;
  return { calls, fetchImpl };
}

describe("marketplaceProvider", () => {
  const provider = marketplaceProvider(options);

  it("is a plain OAuth provider with a state check, no PKCE, and client_secret_post", () => {
    expect(provider.id).toBe("marketplace");
    expect(provider.type).toBe("oauth");
    expect(provider.checks).toEqual(["state"]);
    expect(provider.client).toEqual({ token_endpoint_auth_method: "client_secret_post" });
    expect(provider.clientId).toBe("client-1");
    expect(provider.clientSecret).toBe("secret-1");
  });

  it("sends the seller to the platform's authorization page with the configured scopes", () => {
    const authorization = provider.authorization as { url: string; params: Record<string, string> };
    expect(authorization.url).toBe("https://auth.example/auth/integradores/oauth");
    expect(authorization.params).toEqual({ response_type: "code", scope: "basic_user_info order-order:read" });
    expect(provider.token).toEqual({ url: "https://api.example/v1.0/integradores/oauth/token" });
  });

  it("reads the profile with a POST to basic_user_info and the bearer token", async () => {
    const { calls, fetchImpl } = recordingFetch(() => Response.json({ user_name: "Loja Demo", user_email: "Seller@Example.com" }));
    const withFetch = marketplaceProvider({ ...options, fetch: fetchImpl });
    const userinfo = withFetch.userinfo as { request: (ctx: { tokens: { access_token?: string } }) => Promise<unknown> };
    const profile = await userinfo.request({ tokens: { access_token: "tok-123" } });

    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe("https://api.example/v1.0/integradores/basic_user_info");
    expect(calls[0]?.init?.method).toBe("POST");
    expect(new Headers(calls[0]?.init?.headers).get("authorization")).toBe("Bearer tok-123");
    expect(profile).toEqual({ user_name: "Loja Demo", user_email: "Seller@Example.com" });
    expect(withFetch.profile?.(profile as never, {} as never)).toEqual({
      id: "seller@example.com",
      name: "Loja Demo",
      email: "seller@example.com",
    });
  });

  it("reports a refused basic_user_info as a profile failure", async () => {
    const failures: unknown[] = [];
    const { fetchImpl } = recordingFetch(() => Response.json({ error: { code: "insufficient_scope" } }, { status: 403 }));
    const withFetch = marketplaceProvider({ ...options, fetch: fetchImpl, onCallbackError: (f) => failures.push(f) });
    const userinfo = withFetch.userinfo as { request: (ctx: { tokens: { access_token?: string } }) => Promise<unknown> };
    await expect(userinfo.request({ tokens: { access_token: "tok" } })).rejects.toThrow();
    expect(failures).toEqual([{ stage: "profile", error: "forbidden" }]);
  });

  it("reports the platform's token error, which Auth.js itself would hide", async () => {
    const failures: unknown[] = [];
    const { fetchImpl } = recordingFetch(() => Response.json({ error: "invalid_grant" }, { status: 400 }));
    const withFetch = marketplaceProvider({ ...options, fetch: fetchImpl, onCallbackError: (f) => failures.push(f) });
    const response = await withFetch[customFetch]!("https://api.example/v1.0/integradores/oauth/token", { method: "POST" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "invalid_grant" });
    expect(failures).toEqual([{ stage: "token", error: "invalid_grant" }]);
  });
});
