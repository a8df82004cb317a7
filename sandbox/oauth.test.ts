import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_REDIRECT_URI } from "./seed";
import {
  authorizeQuery,
  exchangeCode,
  obtainAccessToken,
  obtainCode,
  startTestSandbox,
  submitConsent,
  tokenFields,
  type AuthorizeOptions,
  type TestSandbox,
} from "./testing";

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.handle.reset());

function authorizePage(query: string): Promise<Response> {
  return fetch(`${sandbox.url}/auth/integradores/oauth?${query}`, { redirect: "manual" });
}

/** Asserts a 302 to the redirect URI and returns its query parameters. */
function redirectParams(response: Response, redirectUri = DEFAULT_REDIRECT_URI): URLSearchParams {
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get("Location") ?? "");
  expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
  return location.searchParams;
}

describe("authorization request page (GET)", () => {
  it("renders a login and consent form that works without JavaScript", async () => {
    const query = authorizeQuery({ state: "xyz", scopes: ["basic_user_info", "order-order:read"] });
    const response = await authorizePage(query);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/html");
    const html = await response.text();
    expect(html).not.toContain("<script");
    expect(html).toContain(`<form method="post" action="/auth/integradores/oauth?${query.replaceAll("&", "&amp;")}">`);
    expect(html).toMatch(/<input type="text" id="login" name="login"/);
    expect(html).toMatch(/<input type="password" id="password" name="password"/);
    expect(html).toContain('<input type="checkbox" name="scope" value="basic_user_info" checked>');
    expect(html).toContain('<input type="checkbox" name="scope" value="order-order:read" checked>');
    expect(html).toContain('<button type="submit" name="decision" value="approve">');
    expect(html).toContain('<button type="submit" name="decision" value="deny" formnovalidate>');
  });

  it("escapes everything it echoes", async () => {
    const response = await authorizePage(`${authorizeQuery()}&state=${encodeURIComponent('"><script>alert(1)</script>')}`);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).not.toContain("<script>");
  });

  it.each([
    ["client_id missing", () => authorizeQuery().replace("client_id=demo-integrator&", "")],
    ["client_id unknown", () => authorizeQuery({ clientId: "nobody" })],
    ["redirect_uri not registered", () => authorizeQuery({ redirectUri: "http://evil.example/cb" })],
    ["redirect_uri malformed", () => authorizeQuery({ redirectUri: "not a url" })],
    ["redirect_uri omitted for an app with several", () => authorizeQuery({ clientId: "multi-integrator", redirectUri: null })],
    ["client_id repeated", () => `${authorizeQuery()}&client_id=demo-integrator`],
  ])("%s → HTTP 400 error page, no redirect", async (_name, query) => {
    const response = await authorizePage(query());
    expect(response.status).toBe(400);
    expect(response.headers.get("Location")).toBeNull();
    expect(await response.text()).toContain("Authorization request error");
  });

  it("uses the only registered redirect URI when redirect_uri is omitted", async () => {
    const response = await authorizePage(authorizeQuery({ redirectUri: null }));
    expect(response.status).toBe(200);
    const code = await obtainCode(sandbox.url, { redirectUri: null });
    const exchanged = await exchangeCode(sandbox.url, tokenFields(code));
    expect(exchanged.status).toBe(200);
  });

  it("accepts any registered URI of an app with several", async () => {
    const code = await obtainCode(sandbox.url, { clientId: "multi-integrator", redirectUri: "http://localhost:3000/cb2" });
    const response = await exchangeCode(
      sandbox.url,
      tokenFields(code, { client_id: "multi-integrator", client_secret: "multi-secret", redirect_uri: "http://localhost:3000/cb2" }),
    );
    expect(response.status).toBe(200);
  });

  it.each<[string, () => string, string]>([
    ["response_type missing", () => authorizeQuery({ state: "s1" }).replace("response_type=code&", ""), "invalid_request"],
    [
      "response_type token",
      () => authorizeQuery({ state: "s1" }).replace("response_type=code", "response_type=token"),
      "unsupported_response_type",
    ],
    ["scope missing", () => authorizeQuery({ state: "s1" }).replace(/&scope=[^&]*/, ""), "invalid_request"],
    ["scope unknown", () => authorizeQuery({ state: "s1", scopes: ["basic_user_info", "everything"] }), "invalid_scope"],
    ["scope with wrong case", () => authorizeQuery({ state: "s1", scopes: ["Portfolio:read"] }), "invalid_scope"],
    ["scope malformed", () => authorizeQuery({ state: "s1", scopes: ["basic_user_info", "", "portfolio:read"] }), "invalid_scope"],
    [
      "marketplace scope for an autos app",
      () => authorizeQuery({ state: "s1", clientId: "autos-integrator", scopes: ["order-order:read"] }),
      "invalid_scope",
    ],
    ["app not allowed the code flow", () => authorizeQuery({ state: "s1", clientId: "restricted-integrator" }), "unauthorized_client"],
    ["repeated parameter", () => `${authorizeQuery({ state: "s1" })}&response_type=code`, "invalid_request"],
  ])("%s → redirect with error", async (_name, query, error) => {
    const params = redirectParams(await authorizePage(query()));
    expect(params.get("error")).toBe(error);
    expect(params.get("state")).toBe("s1");
    expect(params.get("code")).toBeNull();
  });

  it("lets an autos app ask for the scopes that apply to it", async () => {
    const response = await authorizePage(authorizeQuery({ clientId: "autos-integrator", scopes: ["basic_user_info", "autoupload"] }));
    expect(response.status).toBe(200);
  });

  it("maintenance → temporarily_unavailable; errorRate 1 → server_error", async () => {
    sandbox.handle.faults.apply({ maintenance: true });
    expect(redirectParams(await authorizePage(authorizeQuery({ state: "m" }))).get("error")).toBe("temporarily_unavailable");
    sandbox.handle.faults.clear();
    sandbox.handle.faults.apply({ errorRate: 1 });
    const params = redirectParams(await authorizePage(authorizeQuery({ state: "e" })));
    expect(params.get("error")).toBe("server_error");
    expect(params.get("state")).toBe("e");
  });
});

describe("the consent page's language (Accept-Language)", () => {
  const page = (acceptLanguage: string | null, query = authorizeQuery({ scopes: ["basic_user_info", "order-order:read"] })) =>
    fetch(`${sandbox.url}/auth/integradores/oauth?${query}`, {
      redirect: "manual",
      headers: acceptLanguage === null ? {} : { "Accept-Language": acceptLanguage },
    });

  it("is Brazilian Portuguese for a browser in pt-BR: every word, the permissions included", async () => {
    const response = await page("pt-BR,pt;q=0.9,en-US;q=0.8,en;q=0.7");
    expect(response.status).toBe(200);
    expect(response.headers.get("Vary")).toBe("Accept-Language");
    const html = await response.text();
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).toContain("<title>Autorizar aplicativo</title>");
    expect(html).toContain("<h1>Autorizar Demo Integrator</h1>");
    expect(html).toContain("pede para agir em seu nome no marketplace");
    expect(html).toContain('<label for="password">Senha</label>');
    expect(html).toContain("<legend>Permissões (desmarque para recusar alguma)</legend>");
    expect(html).toContain("Dados básicos do perfil (nome, e-mail, contato)");
    expect(html).toContain("Ver pedidos (dados de entrega, status)");
    expect(html).toContain('<button type="submit" name="decision" value="approve">Autorizar</button>');
    expect(html).toContain('<button type="submit" name="decision" value="deny" formnovalidate>Recusar</button>');
    expect(html).not.toMatch(/Approve|Deny|Password|Permissions/);
  });

  it.each([
    [null, "en"],
    ["en-US,en;q=0.9", "en"],
    ["fr-FR,fr;q=0.9", "en"],
    ["pt", "pt-BR"],
    ["pt-PT", "pt-BR"],
    ["fr, pt;q=0.5", "pt-BR"],
    ["en;q=0.4, pt-BR;q=0.8", "pt-BR"],
    ["pt-BR;q=0, en;q=0.1", "en"],
    ["*", "en"],
  ])("Accept-Language %j → %s (English when it names neither)", async (header, lang) => {
    const html = await (await page(header)).text();
    expect(html).toContain(`<html lang="${lang}">`);
    expect(html).toContain(lang === "en" ? "<h1>Authorize Demo Integrator</h1>" : "<h1>Autorizar Demo Integrator</h1>");
  });

  it("speaks Portuguese on the pages that answer the form, and on an error page", async () => {
    const wrong = await fetch(`${sandbox.url}/auth/integradores/oauth?${authorizeQuery()}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Accept-Language": "pt-BR" },
      body: "login=seller%40example.com&password=nope&decision=approve&scope=basic_user_info",
      redirect: "manual",
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("Login ou senha incorretos.");
    const undecided = await fetch(`${sandbox.url}/auth/integradores/oauth?${authorizeQuery()}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Accept-Language": "pt-BR" },
      body: "login=seller%40example.com&password=demo1234",
      redirect: "manual",
    });
    expect(undecided.status).toBe(400);
    expect(await undecided.text()).toContain("Escolha Autorizar ou Recusar.");
    const misconfigured = await page("pt-BR", authorizeQuery({ clientId: "nobody" }));
    expect(misconfigured.status).toBe(400);
    const html = await misconfigured.text();
    expect(html).toContain("Erro no pedido de autorização");
    expect(html).toContain("client_id nobody não é um integrador registrado.");
  });
});

describe("consent form (POST)", () => {
  it("approve → 302 with code and the state unchanged", async () => {
    const state = "a b&c=d/é";
    const params = redirectParams(await submitConsent(sandbox.url, { state }));
    expect(params.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get("state")).toBe(state);
  });

  it("deny → access_denied with state", async () => {
    const params = redirectParams(await submitConsent(sandbox.url, { state: "d", decision: "deny", password: "" }));
    expect(params.get("error")).toBe("access_denied");
    expect(params.get("state")).toBe("d");
  });

  it("a user without PRO plan → access_denied", async () => {
    const params = redirectParams(await submitConsent(sandbox.url, { login: "free@example.com", state: "f" }));
    expect(params.get("error")).toBe("access_denied");
    expect(params.get("state")).toBe("f");
  });

  it("wrong password re-renders the form with an error and no redirect", async () => {
    const response = await submitConsent(sandbox.url, { password: "nope", login: 'seller@example.com"><b>' });
    expect(response.status).toBe(401);
    expect(response.headers.get("Location")).toBeNull();
    const html = await response.text();
    expect(html).toContain("Login or password is incorrect.");
    expect(html).toContain('value="seller@example.com&quot;&gt;&lt;b&gt;"');
    expect(html).toContain('name="decision" value="approve"');
  });

  it("missing decision re-renders the form (400)", async () => {
    const response = await fetch(`${sandbox.url}/auth/integradores/oauth?${authorizeQuery()}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "login=seller%40example.com&password=demo1234",
      redirect: "manual",
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Choose Approve or Deny.");
  });

  it("validates the carried query string again (bad redirect_uri → 400, no redirect)", async () => {
    const response = await submitConsent(sandbox.url, { redirectUri: "http://evil.example/cb" });
    expect(response.status).toBe(400);
    expect(response.headers.get("Location")).toBeNull();
  });

  it("unchecked scopes are not granted", async () => {
    const token = await obtainAccessToken(sandbox.url, {
      scopes: ["basic_user_info", "order-order:read"],
      checkedScopes: ["basic_user_info"],
    });
    expect((await sandbox.api("/v1.0/integradores/basic_user_info", { method: "POST", token })).status).toBe(200);
    expect((await sandbox.api("/v1.0/marketplace/orders", { token })).status).toBe(403);
  });

  it("no scope left checked → access_denied", async () => {
    const params = redirectParams(await submitConsent(sandbox.url, { checkedScopes: [], state: "n" }));
    expect(params.get("error")).toBe("access_denied");
  });
});

describe("token exchange", () => {
  async function freshCode(options: AuthorizeOptions = {}): Promise<string> {
    return obtainCode(sandbox.url, options);
  }

  async function expectTokenError(response: Response, error: string): Promise<void> {
    expect(response.status).toBe(400);
    expect(response.headers.get("Content-Type")).toBe("application/json;charset=UTF-8");
    const body = (await response.json()) as { error: string };
    expect(body.error).toBe(error);
  }

  it("answers the token with exactly the spec's headers", async () => {
    const response = await exchangeCode(sandbox.url, tokenFields(await freshCode()));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json;charset=UTF-8");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(response.headers.get("Pragma")).toBe("no-cache");
    const body = (await response.json()) as { access_token: string; token_type: string };
    // Exactly the spec's fields, nothing more.
    expect(Object.keys(body).sort()).toEqual(["access_token", "token_type"]);
    expect(body.token_type).toBe("Bearer");
    // 32 random bytes in base64url.
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("is form-encoded only", async () => {
    const response = await fetch(`${sandbox.url}/v1.0/integradores/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(tokenFields(await freshCode())),
    });
    await expectTokenError(response, "invalid_request");
  });

  it.each([
    [
      "a missing field",
      (fields: Record<string, string>) => Object.fromEntries(Object.entries(fields).filter(([key]) => key !== "redirect_uri")),
    ],
    ["an empty field", (fields: Record<string, string>) => ({ ...fields, client_secret: "" })],
    ["a PKCE code_verifier", (fields: Record<string, string>) => ({ ...fields, code_verifier: "x".repeat(43) })],
    ["an unknown field", (fields: Record<string, string>) => ({ ...fields, foo: "bar" })],
  ])("%s → invalid_request", async (_name, change) => {
    await expectTokenError(await exchangeCode(sandbox.url, change(tokenFields(await freshCode()))), "invalid_request");
  });

  it("a repeated field → invalid_request", async () => {
    const body = `${new URLSearchParams(tokenFields(await freshCode())).toString()}&grant_type=authorization_code`;
    const response = await fetch(`${sandbox.url}/v1.0/integradores/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
    await expectTokenError(response, "invalid_request");
  });

  it("multiple credentials (HTTP Basic and client_secret) → invalid_request", async () => {
    const basic = Buffer.from("demo-integrator:demo-secret").toString("base64");
    await expectTokenError(
      await exchangeCode(sandbox.url, tokenFields(await freshCode()), { headers: { Authorization: `Basic ${basic}` } }),
      "invalid_request",
    );
  });

  it("wrong secret or unknown client → invalid_client", async () => {
    const code = await freshCode();
    await expectTokenError(await exchangeCode(sandbox.url, tokenFields(code, { client_secret: "wrong" })), "invalid_client");
    await expectTokenError(await exchangeCode(sandbox.url, tokenFields(code, { client_id: "nobody" })), "invalid_client");
    // The code was not consumed by the failed attempts.
    expect((await exchangeCode(sandbox.url, tokenFields(code))).status).toBe(200);
  });

  it("grant_type other than authorization_code → unsupported_grant_type", async () => {
    await expectTokenError(
      await exchangeCode(sandbox.url, tokenFields(await freshCode(), { grant_type: "refresh_token" })),
      "unsupported_grant_type",
    );
  });

  it("an app not allowed the grant → unauthorized_client", async () => {
    await expectTokenError(
      await exchangeCode(sandbox.url, tokenFields("any-code", { client_id: "restricted-integrator", client_secret: "restricted-secret" })),
      "unauthorized_client",
    );
  });

  it("scope beyond the grant or unknown → invalid_scope; a narrower scope narrows the token", async () => {
    const code = await freshCode({ scopes: ["basic_user_info", "order-order:read"] });
    await expectTokenError(
      await exchangeCode(sandbox.url, tokenFields(code, { scope: "basic_user_info portfolio:write" })),
      "invalid_scope",
    );
    await expectTokenError(await exchangeCode(sandbox.url, tokenFields(code, { scope: "nonsense" })), "invalid_scope");
    const response = await exchangeCode(sandbox.url, tokenFields(code, { scope: "basic_user_info" }));
    expect(response.status).toBe(200);
    const { access_token: token } = (await response.json()) as { access_token: string };
    expect((await sandbox.api("/v1.0/integradores/basic_user_info", { token, method: "POST" })).status).toBe(200);
    expect((await sandbox.api("/v1.0/marketplace/orders", { token })).status).toBe(403);
  });

  it("unknown code → invalid_grant", async () => {
    await expectTokenError(await exchangeCode(sandbox.url, tokenFields("not-a-code")), "invalid_grant");
  });

  it("a reused code → invalid_grant and the token it produced is revoked", async () => {
    const code = await freshCode();
    const first = await exchangeCode(sandbox.url, tokenFields(code));
    const { access_token: token } = (await first.json()) as { access_token: string };
    expect((await sandbox.api("/v1.0/marketplace/orders", { token })).status).toBe(200);
    await expectTokenError(await exchangeCode(sandbox.url, tokenFields(code)), "invalid_grant");
    const after = await sandbox.api("/v1.0/marketplace/orders", { token });
    expect(after.status).toBe(401);
    expect(((await after.json()) as { error: { code: string } }).error.code).toBe("invalid_token");
  });

  it("a code older than 10 minutes → invalid_grant (sandbox clock)", async () => {
    const fresh = await freshCode();
    const stale = await freshCode();
    await sandbox.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 590 } });
    expect((await exchangeCode(sandbox.url, tokenFields(fresh))).status).toBe(200);
    await sandbox.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 11 } });
    await expectTokenError(await exchangeCode(sandbox.url, tokenFields(stale)), "invalid_grant");
  });

  it("a code issued to another client → invalid_grant", async () => {
    const code = await freshCode();
    await expectTokenError(
      await exchangeCode(
        sandbox.url,
        tokenFields(code, { client_id: "multi-integrator", client_secret: "multi-secret", redirect_uri: "http://localhost:3000/cb1" }),
      ),
      "invalid_grant",
    );
  });

  it("a redirect URI other than the authorization request's → invalid_grant", async () => {
    const code = await obtainCode(sandbox.url, { clientId: "multi-integrator", redirectUri: "http://localhost:3000/cb1" });
    await expectTokenError(
      await exchangeCode(
        sandbox.url,
        tokenFields(code, { client_id: "multi-integrator", client_secret: "multi-secret", redirect_uri: "http://localhost:3000/cb2" }),
      ),
      "invalid_grant",
    );
  });
});

describe("token lifetime", () => {
  it("tokens do not expire by default", async () => {
    const token = await obtainAccessToken(sandbox.url);
    await sandbox.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 365 * 86_400 } });
    expect((await sandbox.api("/v1.0/marketplace/orders", { token })).status).toBe(200);
  });

  it("SANDBOX_TOKEN_TTL makes them expire", async () => {
    const short = await startTestSandbox({ config: { tokenTtlSeconds: 60 } });
    try {
      const code = await obtainCode(short.url);
      const response = await exchangeCode(short.url, tokenFields(code));
      const body = (await response.json()) as { access_token: string };
      expect((await short.api("/v1.0/marketplace/orders", { token: body.access_token })).status).toBe(200);
      await short.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 61 } });
      expect((await short.api("/v1.0/marketplace/orders", { token: body.access_token })).status).toBe(401);
    } finally {
      await short.close();
    }
  });
});

describe("expired and revoked credentials are swept", () => {
  it("an expired code is forgotten when the next code or token is issued", async () => {
    const stale = await obtainCode(sandbox.url);
    await sandbox.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 601 } });
    expect(sandbox.handle.store.codes.has(stale)).toBe(true);
    const fresh = await obtainCode(sandbox.url);
    expect([...sandbox.handle.store.codes.keys()]).toEqual([fresh]);
    expect(await (await exchangeCode(sandbox.url, tokenFields(stale))).json()).toMatchObject({ error: "invalid_grant" });
  });

  it("a used code is kept until it expires, so that a replay still revokes its token", async () => {
    const code = await obtainCode(sandbox.url);
    const { access_token: token } = (await (await exchangeCode(sandbox.url, tokenFields(code))).json()) as { access_token: string };
    await sandbox.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 300 } });
    await obtainCode(sandbox.url); // a sweep runs
    expect(sandbox.handle.store.codes.has(code)).toBe(true);
    expect(await (await exchangeCode(sandbox.url, tokenFields(code))).json()).toMatchObject({ error: "invalid_grant" });
    expect((await sandbox.api("/v1.0/marketplace/orders", { token })).status).toBe(401);
  });

  it("expired and revoked tokens are forgotten; active ones stay", async () => {
    const short = await startTestSandbox({ config: { tokenTtlSeconds: 120 } });
    try {
      const expiring = await obtainAccessToken(short.url);
      const code = await obtainCode(short.url);
      const { access_token: revoked } = (await (await exchangeCode(short.url, tokenFields(code))).json()) as { access_token: string };
      expect((await exchangeCode(short.url, tokenFields(code))).status).toBe(400);
      await short.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 61 } });
      const active = await obtainAccessToken(short.url);
      expect([...short.handle.store.tokens.keys()]).toEqual([expiring, active]);
      expect(revoked).not.toBe(active);
      await short.api("/_sandbox/clock", { method: "POST", json: { advanceSeconds: 61 } });
      const latest = await obtainAccessToken(short.url);
      expect([...short.handle.store.tokens.keys()]).toEqual([active, latest]);
    } finally {
      await short.close();
    }
  });
});
