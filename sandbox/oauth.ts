// The authorization code flow (spec: Endpoints 1 and 2; Authentication; Errors).
import { timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import { z } from "zod";
import type { AuthorizationErrorCode, TokenErrorCode } from "@marketplace/api/schemas/oauth";
import { tokenRequestSchema } from "@marketplace/api/schemas/oauth";
import { isKnownScope, parseScopeParameter, scopeAppliesTo } from "@marketplace/api/schemas/scopes";
import { bodyTooLargeMessage, FORM_BODY_LIMIT_BYTES, type BodyLimitRule } from "./body-limit";
import {
  CONSENT_WORDS,
  consentLanguage,
  NO_REDIRECT_REASONS,
  unknownClient,
  type ConsentLanguage,
  type NoRedirectReason,
} from "./consent-words";
import type { SandboxContext, SandboxEnv } from "./context";
import { escapeHtml, HTML_HEADERS, htmlDocument } from "./html";
import { opaqueToken } from "./random";
import type { IntegratorApp } from "./store";

export const AUTHORIZE_PATH = "/auth/integradores/oauth";
export const TOKEN_PATH = "/v1.0/integradores/oauth/token";

/** Spec: Limits → authorization code lifetime 10 minutes, single use. */
export const CODE_LIFETIME_MS = 10 * 60 * 1000;

/**
 * Expired codes and expired or revoked tokens are swept when a code or a token is issued (the
 * only times their number grows), at most once a minute of sandbox time.
 */
const CREDENTIAL_SWEEP_INTERVAL_MS = 60 * 1000;

function sweepCredentialsIfDue(ctx: SandboxContext): void {
  const now = ctx.clock.now();
  if (now - ctx.store.lastCredentialSweepAt >= CREDENTIAL_SWEEP_INTERVAL_MS) ctx.store.sweepCredentials(now, CODE_LIFETIME_MS);
}

// ---------------------------------------------------------------------------------------------
// Authorization request validation, shared by the page (GET) and its form (POST)

type AuthorizationCheck =
  | { kind: "no-redirect"; message: NoRedirectReason }
  | { kind: "redirect-error"; redirectUri: string; state: string | null; error: AuthorizationErrorCode; description: string }
  | { kind: "ok"; app: IntegratorApp; redirectUri: string; state: string | null; scopes: string[] };

/** A new access token for the user, as the token endpoint issues it (and the control route `POST /_sandbox/tokens`). */
export function issueAccessToken(ctx: SandboxContext, grant: { clientId: string; userId: string; scopes: string[] }): string {
  const now = ctx.clock.now();
  const ttl = ctx.config.tokenTtlSeconds;
  sweepCredentialsIfDue(ctx);
  const accessToken = opaqueToken();
  ctx.store.tokens.set(accessToken, {
    token: accessToken,
    ...grant,
    issuedAt: now,
    expiresAt: ttl === undefined ? null : now + ttl * 1000,
    revoked: false,
  });
  return accessToken;
}

function isAbsoluteUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function checkAuthorizationRequest(ctx: SandboxContext, params: URLSearchParams): AuthorizationCheck {
  const count = (name: string) => params.getAll(name).length;
  // Without a trustworthy client_id and redirect_uri the user is never redirected (spec: Endpoint 1).
  if (count("client_id") > 1) return { kind: "no-redirect", message: NO_REDIRECT_REASONS.clientIdRepeated };
  if (count("redirect_uri") > 1) return { kind: "no-redirect", message: NO_REDIRECT_REASONS.redirectUriRepeated };
  const clientId = params.get("client_id");
  if (!clientId) return { kind: "no-redirect", message: NO_REDIRECT_REASONS.clientIdMissing };
  const app = ctx.store.apps.get(clientId);
  if (!app) return { kind: "no-redirect", message: unknownClient(clientId) };
  const requestedRedirect = params.get("redirect_uri");
  let redirectUri: string;
  if (requestedRedirect === null || requestedRedirect === "") {
    const [only, ...others] = app.redirectUris;
    if (!only || others.length > 0) {
      return { kind: "no-redirect", message: NO_REDIRECT_REASONS.redirectUriRequired };
    }
    redirectUri = only;
  } else if (!isAbsoluteUrl(requestedRedirect)) {
    return { kind: "no-redirect", message: NO_REDIRECT_REASONS.redirectUriInvalid };
  } else if (!app.redirectUris.includes(requestedRedirect)) {
    return { kind: "no-redirect", message: NO_REDIRECT_REASONS.redirectUriUnknown };
  } else {
    redirectUri = requestedRedirect;
  }

  const state = params.get("state");
  const fail = (error: AuthorizationErrorCode, description: string): AuthorizationCheck => ({
    kind: "redirect-error",
    redirectUri,
    state,
    error,
    description,
  });
  for (const name of new Set(params.keys())) {
    if (count(name) > 1) return fail("invalid_request", `${name} is given more than once`);
  }
  if (ctx.faults.current.maintenance) return fail("temporarily_unavailable", "The platform is under maintenance");
  if (ctx.faults.injectServerError()) return fail("server_error", "Unexpected server condition (fault errorRate)");
  const responseType = params.get("response_type");
  if (!responseType) return fail("invalid_request", "response_type is missing");
  if (responseType !== "code") return fail("unsupported_response_type", "Only response_type=code is supported");
  if (!app.mayUseAuthorizationCode) return fail("unauthorized_client", "This application may not use the authorization code flow");
  const scopeParam = params.get("scope");
  if (!scopeParam) return fail("invalid_request", "scope is missing");
  const scopes = parseScopeParameter(scopeParam);
  if (!scopes) return fail("invalid_scope", "scope is malformed: use scope values separated by single spaces");
  const unknown = scopes.filter((scope) => !isKnownScope(scope));
  if (unknown.length > 0) return fail("invalid_scope", `Unknown scope: ${unknown.join(" ")}`);
  const foreign = scopes.filter((scope) => !scopeAppliesTo(scope, app.type));
  if (foreign.length > 0) return fail("invalid_scope", `Scope not available to ${app.type} applications: ${foreign.join(" ")}`);
  return { kind: "ok", app, redirectUri, state, scopes };
}

function redirectWith(redirectUri: string, values: Record<string, string>, state: string | null): Response {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(values)) url.searchParams.set(key, value);
  if (state !== null) url.searchParams.set("state", state);
  return new Response(null, { status: 302, headers: { Location: url.toString(), "Cache-Control": "no-store" } });
}

function htmlResponse(status: number, html: string): Response {
  // A fresh headers object per response: @hono/node-server writes Content-Length into the init object.
  // Its words follow the browser's Accept-Language (the page is never cached: no-store).
  return new Response(html, { status, headers: { ...HTML_HEADERS, Vary: "Accept-Language" } });
}

/** The language of the page answering this request. */
function pageLanguage(request: Request): ConsentLanguage {
  return consentLanguage(request.headers.get("Accept-Language") ?? undefined);
}

function errorPage(message: NoRedirectReason, language: ConsentLanguage): Response {
  const words = CONSENT_WORDS[language];
  return htmlResponse(
    400,
    htmlDocument(
      words.errorTitle,
      `<h1>${escapeHtml(words.errorHeading)}</h1>
<p class="error" role="alert">${escapeHtml(message[language])}</p>
<p><small>${escapeHtml(words.errorNote)}</small></p>`,
      language,
    ),
  );
}

interface ConsentPageState {
  language: ConsentLanguage;
  app: IntegratorApp;
  scopes: string[];
  query: string;
  login?: string;
  checked?: ReadonlySet<string>;
  error?: string;
}

function consentPage(status: number, page: ConsentPageState): Response {
  const words = CONSENT_WORDS[page.language];
  const scopeItems = page.scopes
    .map((scope) => {
      const checked = !page.checked || page.checked.has(scope) ? " checked" : "";
      return `<label><input type="checkbox" name="scope" value="${escapeHtml(scope)}"${checked}>
<span><code>${escapeHtml(scope)}</code><br><small>${escapeHtml(words.scope(scope))}</small></span></label>`;
    })
    .join("\n");
  const action = `${AUTHORIZE_PATH}${page.query ? `?${page.query}` : ""}`;
  const [before, between, after] = words.asks.map(escapeHtml);
  return htmlResponse(
    status,
    htmlDocument(
      words.title,
      `<h1>${escapeHtml(words.heading(page.app.name))}</h1>
<p>${before}<strong>${escapeHtml(page.app.name)}</strong>${between}<code>${escapeHtml(page.app.clientId)}</code>${after}</p>
${page.error ? `<p class="error" role="alert">${escapeHtml(page.error)}</p>` : ""}
<form method="post" action="${escapeHtml(action)}">
<label for="login">${escapeHtml(words.login)}</label>
<input type="text" id="login" name="login" autocomplete="username" value="${escapeHtml(page.login ?? "")}" required>
<label for="password">${escapeHtml(words.password)}</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<fieldset>
<legend>${escapeHtml(words.permissions)}</legend>
${scopeItems}
</fieldset>
<div class="actions">
<button type="submit" name="decision" value="approve">${escapeHtml(words.approve)}</button>
<button type="submit" name="decision" value="deny" formnovalidate>${escapeHtml(words.deny)}</button>
</div>
</form>
<p><small>${escapeHtml(words.users)}</small></p>`,
      page.language,
    ),
  );
}

const consentFormSchema = z.object({
  login: z.string().default(""),
  password: z.string().default(""),
  decision: z.enum(["approve", "deny"]),
  scope: z.array(z.string()).default([]),
});

function passwordsMatch(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

// ---------------------------------------------------------------------------------------------
// Token exchange

const TOKEN_HEADERS = { "Content-Type": "application/json;charset=UTF-8", "Cache-Control": "no-store", Pragma: "no-cache" };

function tokenJson(status: number, body: object): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...TOKEN_HEADERS } });
}

function tokenError(error: TokenErrorCode, description: string): Response {
  return tokenJson(400, { error, error_description: description });
}

/**
 * 64 KiB per form, far above what either form needs. 413 in each route's own shape: an HTML page
 * on the browser-facing consent form, the OAuth error JSON on the token endpoint (RFC 6749 §5.2
 * has no code for it, so `invalid_request`).
 */
export const oauthBodyLimits: readonly BodyLimitRule[] = [
  {
    path: AUTHORIZE_PATH,
    maxBytes: FORM_BODY_LIMIT_BYTES,
    tooLarge: (c, maxBytes) => {
      const language = pageLanguage(c.req.raw);
      const words = CONSENT_WORDS[language];
      return htmlResponse(
        413,
        htmlDocument(
          words.tooLargeTitle,
          `<h1>${escapeHtml(words.tooLargeTitle)}</h1>\n<p class="error" role="alert">${escapeHtml(words.tooLarge(maxBytes))}.</p>`,
          language,
        ),
      );
    },
  },
  {
    path: TOKEN_PATH,
    maxBytes: FORM_BODY_LIMIT_BYTES,
    tooLarge: (_c, maxBytes) => tokenJson(413, { error: "invalid_request", error_description: bodyTooLargeMessage(maxBytes) }),
  },
];

const TOKEN_FIELDS = new Set(["code", "client_id", "client_secret", "redirect_uri", "grant_type"]);
/** Optional sixth field (sandbox choice, documented): narrows the token to part of the grant; outside it → invalid_scope. */
const OPTIONAL_TOKEN_FIELDS = new Set(["scope"]);

export function oauthRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();

  routes.get(AUTHORIZE_PATH, (c) => {
    const query = new URL(c.req.url).search.slice(1);
    const language = pageLanguage(c.req.raw);
    const check = checkAuthorizationRequest(ctx, new URLSearchParams(query));
    if (check.kind === "no-redirect") return errorPage(check.message, language);
    if (check.kind === "redirect-error")
      return redirectWith(check.redirectUri, { error: check.error, error_description: check.description }, check.state);
    return consentPage(200, { language, app: check.app, scopes: check.scopes, query });
  });

  routes.post(AUTHORIZE_PATH, async (c) => {
    const query = new URL(c.req.url).search.slice(1);
    const language = pageLanguage(c.req.raw);
    const words = CONSENT_WORDS[language];
    const check = checkAuthorizationRequest(ctx, new URLSearchParams(query));
    if (check.kind === "no-redirect") return errorPage(check.message, language);
    if (check.kind === "redirect-error")
      return redirectWith(check.redirectUri, { error: check.error, error_description: check.description }, check.state);
    const { app, redirectUri, state, scopes } = check;

    const form = new URLSearchParams(await c.req.text());
    const parsed = consentFormSchema.safeParse({
      login: form.get("login") ?? undefined,
      password: form.get("password") ?? undefined,
      decision: form.get("decision") ?? undefined,
      scope: form.getAll("scope"),
    });
    if (!parsed.success) {
      return consentPage(400, { language, app, scopes, query, login: form.get("login") ?? "", error: words.chooseDecision });
    }
    const { login, password, decision, scope: checkedScopes } = parsed.data;
    if (decision === "deny")
      return redirectWith(redirectUri, { error: "access_denied", error_description: "The user denied the request" }, state);

    const user = ctx.store.findUserByLogin(login);
    if (!user || !passwordsMatch(password, user.password)) {
      return consentPage(401, { language, app, scopes, query, login, checked: new Set(checkedScopes), error: words.wrongLogin });
    }
    if (!user.pro) return redirectWith(redirectUri, { error: "access_denied", error_description: "The user has no PRO plan" }, state);
    // The user may uncheck scopes (spec: Authentication, point 4); scopes not requested are ignored.
    const granted = scopes.filter((scope) => checkedScopes.includes(scope));
    if (granted.length === 0)
      return redirectWith(redirectUri, { error: "access_denied", error_description: "The user granted no permission" }, state);

    sweepCredentialsIfDue(ctx);
    const code = opaqueToken();
    ctx.store.codes.set(code, {
      code,
      clientId: app.clientId,
      userId: user.id,
      scopes: granted,
      redirectUri,
      issuedAt: ctx.clock.now(),
      used: false,
      accessToken: null,
    });
    return redirectWith(redirectUri, { code }, state);
  });

  routes.post(TOKEN_PATH, async (c) => {
    const mediaType = (c.req.header("Content-Type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (mediaType !== "application/x-www-form-urlencoded") {
      return tokenError("invalid_request", "The body must be application/x-www-form-urlencoded");
    }
    const form = new URLSearchParams(await c.req.text());
    const seen = new Set<string>();
    for (const key of form.keys()) {
      if (!TOKEN_FIELDS.has(key) && !OPTIONAL_TOKEN_FIELDS.has(key)) return tokenError("invalid_request", `Unsupported parameter ${key}`);
      if (seen.has(key)) return tokenError("invalid_request", `Parameter ${key} is repeated`);
      seen.add(key);
    }
    if (c.req.header("Authorization")) {
      return tokenError("invalid_request", "Multiple client credentials: send client_secret in the form only");
    }
    const parsed = tokenRequestSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) {
      const missing = [...TOKEN_FIELDS].filter((field) => !form.get(field));
      return tokenError("invalid_request", `Missing parameter(s): ${missing.join(", ")}`);
    }
    const request = parsed.data;
    const app = ctx.store.apps.get(request.client_id);
    if (!app || !passwordsMatch(request.client_secret, app.clientSecret))
      return tokenError("invalid_client", "Client authentication failed");
    if (request.grant_type !== "authorization_code")
      return tokenError("unsupported_grant_type", "Only grant_type=authorization_code is supported");
    if (!app.mayUseAuthorizationCode) return tokenError("unauthorized_client", "This application may not use the authorization_code grant");

    const code = ctx.store.codes.get(request.code);
    if (!code || code.clientId !== app.clientId) return tokenError("invalid_grant", "The code is invalid or was issued to another client");
    if (code.used) {
      // RFC 6749 §4.1.2: a replayed code revokes the token issued with it.
      if (code.accessToken) {
        const issued = ctx.store.tokens.get(code.accessToken);
        if (issued) issued.revoked = true;
      }
      return tokenError("invalid_grant", "The code was already used; the token issued with it is revoked");
    }
    if (ctx.clock.now() - code.issuedAt >= CODE_LIFETIME_MS) return tokenError("invalid_grant", "The code expired (10 minutes)");
    if (code.redirectUri !== request.redirect_uri)
      return tokenError("invalid_grant", "redirect_uri differs from the one of the authorization request");

    let scopes = code.scopes;
    const scopeParam = form.get("scope");
    if (scopeParam !== null) {
      const requested = parseScopeParameter(scopeParam);
      if (!requested || requested.some((scope) => !isKnownScope(scope)))
        return tokenError("invalid_scope", "scope is malformed or unknown");
      if (requested.some((scope) => !code.scopes.includes(scope)))
        return tokenError("invalid_scope", "scope goes beyond what the user granted");
      scopes = requested;
    }

    const accessToken = issueAccessToken(ctx, { clientId: app.clientId, userId: code.userId, scopes });
    code.used = true;
    code.accessToken = accessToken;
    // Exactly the spec's two fields: a client built against the sandbox must not come to rely on
    // `scope` or `expires_in`, which the platform does not send (spec: Access token response).
    return tokenJson(200, { access_token: accessToken, token_type: "Bearer" });
  });

  return routes;
}
