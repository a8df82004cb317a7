// Helpers for tests and the benchmark: start a sandbox on a free port and walk the real OAuth
// flow (consent form POST, code exchange) like a browser and an integrator would.
import { startSandboxServer, type RunningSandbox, type SandboxOptions } from "./app";
import { DEFAULT_REDIRECT_URI, DEMO_PASSWORD } from "./seed";

export const ALL_MARKETPLACE_SCOPES = [
  "basic_user_info",
  "portfolio:write",
  "portfolio:read",
  "order-order:read",
  "order-delivery:read",
];

export interface TestSandbox extends RunningSandbox {
  /** fetch against the sandbox with an optional bearer token. */
  api: (path: string, init?: RequestInit & { token?: string; json?: unknown }) => Promise<Response>;
}

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const running = await startSandboxServer({ ...options, config: { port: 0, seedOrders: 20, ...options.config } });
  const api: TestSandbox["api"] = (path, init = {}) => {
    const { token, json, headers, ...rest } = init;
    const merged = new Headers(headers);
    if (token) merged.set("Authorization", `Bearer ${token}`);
    if (json !== undefined) merged.set("Content-Type", "application/json");
    return fetch(`${running.url}${path}`, { ...rest, headers: merged, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
  };
  return { ...running, api };
}

export interface AuthorizeOptions {
  clientId?: string;
  redirectUri?: string | null;
  scopes?: string[];
  login?: string;
  password?: string;
  state?: string;
  /** Scopes left checked on the consent page (default: all requested). */
  checkedScopes?: string[];
  decision?: "approve" | "deny";
}

export function authorizeQuery(options: AuthorizeOptions = {}): string {
  const params = new URLSearchParams({ response_type: "code", client_id: options.clientId ?? "demo-integrator" });
  const redirectUri = options.redirectUri === undefined ? DEFAULT_REDIRECT_URI : options.redirectUri;
  if (redirectUri !== null) params.set("redirect_uri", redirectUri);
  params.set("scope", (options.scopes ?? ALL_MARKETPLACE_SCOPES).join(" "));
  if (options.state !== undefined) params.set("state", options.state);
  return params.toString();
}

/** Posts the consent form and returns the raw response (302 on success). */
export async function submitConsent(baseUrl: string, options: AuthorizeOptions = {}): Promise<Response> {
  const form = new URLSearchParams({ login: options.login ?? "seller@example.com", password: options.password ?? DEMO_PASSWORD });
  for (const scope of options.checkedScopes ?? options.scopes ?? ALL_MARKETPLACE_SCOPES) form.append("scope", scope);
  form.set("decision", options.decision ?? "approve");
  return fetch(`${baseUrl}/auth/integradores/oauth?${authorizeQuery(options)}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: form.toString(),
    redirect: "manual",
  });
}

export async function obtainCode(baseUrl: string, options: AuthorizeOptions = {}): Promise<string> {
  const response = await submitConsent(baseUrl, options);
  const location = response.headers.get("Location");
  const code = location ? new URL(location).searchParams.get("code") : null;
  if (response.status !== 302 || !code) throw new Error(`authorization failed: ${response.status} ${location ?? (await response.text())}`);
  return code;
}

export function exchangeCode(
  baseUrl: string,
  fields: Record<string, string>,
  init: { headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetch(`${baseUrl}/v1.0/integradores/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...init.headers },
    body: new URLSearchParams(fields).toString(),
  });
}

export function tokenFields(code: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    code,
    client_id: "demo-integrator",
    client_secret: "demo-secret",
    redirect_uri: DEFAULT_REDIRECT_URI,
    grant_type: "authorization_code",
    ...overrides,
  };
}

/** The whole flow: consent as `login`, exchange the code, return the access token. */
export async function obtainAccessToken(baseUrl: string, options: AuthorizeOptions = {}): Promise<string> {
  const code = await obtainCode(baseUrl, options);
  const response = await exchangeCode(
    baseUrl,
    tokenFields(code, {
      client_id: options.clientId ?? "demo-integrator",
      client_secret: `${(options.clientId ?? "demo-integrator").replace(/-integrator$/, "")}-secret`,
      redirect_uri: options.redirectUri ?? DEFAULT_REDIRECT_URI,
    }),
  );
  const body = (await response.json()) as { access_token?: string };
  if (response.status !== 200 || !body.access_token) throw new Error(`token exchange failed: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}
