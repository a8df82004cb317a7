// Helpers for tests and the benchmark: a sandbox on a free port, and the real OAuth flow walked like
// a browser and an integrator would. Under vitest every answer through them is checked against the
// OpenAPI document (sandbox/README.md, "OpenAPI document"), so the document cannot drift.
import { appendFileSync } from "node:fs";
import { startSandboxServer, type RunningSandbox, type SandboxOptions } from "./app";
import { buildOpenApiDocument, OPENAPI_PATH } from "./openapi";
import type { OpenApiChecker } from "./openapi-check";
import { DEFAULT_REDIRECT_URI, DEMO_PASSWORD } from "./seed";

export const ALL_MARKETPLACE_SCOPES = ["basic_user_info", "portfolio:write", "portfolio:read", "order-order:read", "order-delivery:read"];

// ---------------------------------------------------------------------------------------------
// The OpenAPI check

/** An answer of the sandbox that its OpenAPI document does not describe. */
export class OpenApiMismatchError extends Error {
  constructor(what: string, problems: readonly string[]) {
    super(`${what} does not match ${OPENAPI_PATH} (sandbox/openapi.ts):\n  - ${problems.join("\n  - ")}`);
    this.name = "OpenApiMismatchError";
  }
}

/** On under vitest; the benchmarks measure the sandbox without it. */
function checksWanted(): boolean {
  return Boolean(process.env.VITEST);
}

let checker: Promise<OpenApiChecker> | null = null;

/** One checker per test file, loaded on first use (ajv is a dev dependency). */
function openApiChecker(): Promise<OpenApiChecker> {
  checker ??= import("./openapi-check").then(({ OpenApiChecker }) => new OpenApiChecker(buildOpenApiDocument()));
  return checker;
}

const coverageFile = process.env.SANDBOX_OPENAPI_COVERAGE;
const covered = new Set<string>();

function recordCoverage(response: string | null): void {
  if (!coverageFile || response === null || covered.has(response)) return;
  covered.add(response);
  appendFileSync(coverageFile, `${response}\n`);
}

/** Checks one answer against the document; throws OpenApiMismatchError when it is not described. */
export async function assertDocumentedResponse(method: string, url: string, response: Response): Promise<void> {
  // A followed redirect answered from elsewhere: there is nothing of the sandbox's to check.
  if (response.redirected) return;
  const check = (await openApiChecker()).checkResponse({
    method,
    url,
    status: response.status,
    headers: response.headers,
    body: await response.clone().text(),
  });
  recordCoverage(check.response);
  if (check.problems.length > 0) throw new OpenApiMismatchError(`${check.operation ?? method} answered ${response.status}`, check.problems);
}

/** Origins of the sandboxes started here with checks on: the OAuth helpers check only their answers. */
const checkedOrigins = new Set<string>();

/** fetch, and the answer checked against the document when it comes from a checked sandbox. */
async function checkedFetch(url: string, init: RequestInit): Promise<Response> {
  const response = await fetch(url, init);
  if (checkedOrigins.has(new URL(url).origin)) await assertDocumentedResponse(init.method ?? "GET", url, response);
  return response;
}

// ---------------------------------------------------------------------------------------------
// A sandbox for tests

export interface TestSandbox extends RunningSandbox {
  /**
   * In tests, fails with OpenApiMismatchError when the answer, or a notification sent since the
   * last call, does not match the OpenAPI document.
   */
  api: (path: string, init?: RequestInit & { token?: string; json?: unknown }) => Promise<Response>;
}

export interface TestSandboxOptions extends SandboxOptions {
  /** Check answers and notifications against the OpenAPI document (default: on under vitest). */
  checkOpenApi?: boolean;
}

export async function startTestSandbox(options: TestSandboxOptions = {}): Promise<TestSandbox> {
  const { checkOpenApi = checksWanted(), ...sandboxOptions } = options;
  const running = await startSandboxServer({ ...sandboxOptions, config: { port: 0, seedOrders: 20, ...sandboxOptions.config } });
  const notificationProblems: string[] = [];
  const origin = new URL(running.url).origin;
  if (checkOpenApi) {
    checkedOrigins.add(origin);
    const documentChecker = await openApiChecker();
    // Every notification body is checked when it is made, whether or not a receiver gets it.
    const dispatcher = running.handle.webhooks;
    const enqueue = dispatcher.enqueue.bind(dispatcher);
    dispatcher.enqueue = (...args) => {
      const deliveries = enqueue(...args);
      for (const delivery of deliveries) notificationProblems.push(...documentChecker.checkNotification(delivery.body));
      return deliveries;
    };
  }
  const throwNotificationProblems = () => {
    if (notificationProblems.length > 0) throw new OpenApiMismatchError("A webhook notification", notificationProblems.splice(0));
  };
  const api: TestSandbox["api"] = async (path, init = {}) => {
    const { token, json, headers, ...rest } = init;
    const merged = new Headers(headers);
    if (token) merged.set("Authorization", `Bearer ${token}`);
    if (json !== undefined) merged.set("Content-Type", "application/json");
    const response = await checkedFetch(`${running.url}${path}`, {
      ...rest,
      headers: merged,
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
    throwNotificationProblems();
    return response;
  };
  const close = async () => {
    await running.close();
    checkedOrigins.delete(origin);
    throwNotificationProblems();
  };
  return { ...running, close, api };
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
  return checkedFetch(`${baseUrl}/auth/integradores/oauth?${authorizeQuery(options)}`, {
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
  return checkedFetch(`${baseUrl}/v1.0/integradores/oauth/token`, {
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
