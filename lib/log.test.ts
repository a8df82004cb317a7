import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "@/lib/env";
import { createLogger, log, requestIdOf, requestLog, scrubText, shopLog } from "@/lib/log.server";
import type { LogFormat, Logger } from "@/lib/log.server";
import { signWebhookBody } from "@marketplace/api/signature";

// Every kind of secret goes through every logger lib/log.server.ts offers, in both
// formats, and none comes out; the context that makes a line useful (request, shop, message) does.

const accessToken = "Sbx9fQ2LmZ7pX4vR1tK8yW3nB6cD0hJ5gA2sE7uIqLw";
const secrets = {
  accessToken,
  // Short and plain: only its key gives it away.
  shortToken: "tok-4242-abcd",
  refreshToken: "rt-5151-wxyz",
  oauthCode: "auth-code-8080",
  clientSecret: "cs-9191-qrst",
  otherToken: "Zx81Pq02Lm93Nb74Vc65Xz56Aq47Sw38De29Fr10Gt",
  sessionCookie: "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..c2Vzc2lvbi1ub25jZQ.cGF5bG9hZC1ieXRlcw.dGFn",
  otherCookie: "theme-pref-7788",
  setCookie: "eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiJzZXNzaW9uLTQyIn0.c2lnbmF0dXJlLWJ5dGVz",
  signature: signWebhookBody('{"data":{}}', accessToken),
  authSecret: env.AUTH_SECRET,
  encryptionKey: env.TOKEN_ENCRYPTION_KEY,
  webhookKey: "wk-3131-mnop",
  cpf: "123.456.789-09",
  cpfDigits: "98765432100",
  cnpj: "12.345.678/0001-95",
  cnpjDigits: "11222333000181",
  databasePassword: "pg-pass-6262",
};

const SHOP_ID = "shop_cmx8k2";
const REQUEST_ID = "req-7f3a-42";

/** Logs one line of each kind, as the app's code would. */
function feed(logger: Logger) {
  logger.info(
    {
      accessToken: secrets.shortToken,
      token: secrets.shortToken,
      access_token: secrets.shortToken,
      refresh_token: secrets.refreshToken,
      code: secrets.oauthCode,
      client_secret: secrets.clientSecret,
    },
    "exchanged an authorization code",
  );
  logger.info(
    {
      headers: {
        authorization: `Bearer ${secrets.accessToken}`,
        cookie: `authjs.session-token=${secrets.sessionCookie}; theme=${secrets.otherCookie}`,
        "set-cookie": `authjs.session-token=${secrets.setCookie}; Path=/; HttpOnly`,
        "x-svc-signature": secrets.signature,
      },
    },
    "received a request",
  );
  logger.warn(
    { AUTH_SECRET: secrets.authSecret, TOKEN_ENCRYPTION_KEY: secrets.encryptionKey, webhookKey: secrets.webhookKey },
    "settings read",
  );
  logger.info(
    {
      order: {
        id: "65a0000000000000000000aa",
        customer: { name: "Maria", document_number: secrets.cpf },
        payments: [{ gateway: { document: secrets.cnpj } }],
        deliveries: [{ shipping: { recipient: { document_number: secrets.cpfDigits } } }],
      },
      customer: { documents: [secrets.cnpjDigits] },
      document: secrets.cnpj,
      // Deeper than any redact path.
      batch: { pages: { first: { refresh_token: secrets.refreshToken } } },
    },
    "order fetched",
  );
  logger.info(`customer ${secrets.cpf} of company ${secrets.cnpj} asked again (${secrets.cpfDigits}, ${secrets.cnpjDigits})`);
  logger.error(
    { err: new Error(`the platform refused Authorization: Bearer ${secrets.accessToken}; token ${secrets.otherToken} is unknown`) },
    "platform call failed",
  );
  logger.error(
    Object.assign(new Error(`connect to postgresql://dashboard:${secrets.databasePassword}@db.internal:5432/dashboard failed`), {
      code: "ECONNREFUSED",
    }),
  );
  logger.warn(
    `callback http://localhost:3000/api/auth/callback/marketplace?code=${secrets.oauthCode}&state=s1 with cookie: ${secrets.otherCookie}`,
  );
  logger.warn(`signed with ${secrets.authSecret} and ${secrets.encryptionKey}`);
}

function capture() {
  const lines: string[] = [];
  return { lines, destination: { write: (line: string) => void lines.push(line) } };
}

function expectNoSecret(output: string) {
  for (const [name, value] of Object.entries(secrets)) {
    expect(output, `${name} leaked`).not.toContain(value);
  }
  expect(output).toContain("[redacted]");
}

const request = () =>
  new Request("http://localhost/api/webhooks/marketplace/wk", { method: "POST", headers: { "x-request-id": REQUEST_ID } });

describe.each<LogFormat>(["json", "pretty"])("%s logs", (format) => {
  const loggers: [string, (root: Logger) => Logger, string[]][] = [
    ["the root logger", (root) => root, []],
    ["a request's logger", (root) => requestLog(request(), { shopId: SHOP_ID }, root), [REQUEST_ID, SHOP_ID]],
    ["a shop's logger", (root) => shopLog(SHOP_ID, { component: "webhooks" }, root), [SHOP_ID, "webhooks"]],
    ["a child with a secret bound", (root) => root.child({ cookie: secrets.sessionCookie, note: `customer ${secrets.cpf}` }), []],
  ];

  it.each(loggers)("%s lets no token, secret, cookie, signature or document out", (_name, make, context) => {
    const { lines, destination } = capture();
    feed(make(createLogger({ format, level: "info", destination })));
    const output = lines.join("");
    expect(lines).toHaveLength(9);
    expectNoSecret(output);
    // An error's own code is kept, under another name than OAuth's code.
    for (const message of [
      "exchanged an authorization code",
      "received a request",
      "order fetched",
      "platform call failed",
      "asked again",
      "ECONNREFUSED",
    ]) {
      expect(output).toContain(message);
    }
    for (const value of context) expect(output).toContain(value);
    if (format === "json") {
      // Still one JSON object per line, with its level and time.
      for (const line of lines)
        expect(JSON.parse(line)).toMatchObject({ level: expect.any(String), time: expect.any(String), msg: expect.any(String) });
    }
  });
});

describe("the process's own loggers", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("write to stdout with the same redaction", () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const level = log.level;
    log.level = "info";
    try {
      feed(log);
      feed(requestLog(request(), { shopId: SHOP_ID }));
      feed(shopLog(SHOP_ID));
    } finally {
      log.level = level;
    }
    const output = written.join("");
    expect(written).toHaveLength(27);
    expectNoSecret(output);
    expect(output).toContain(REQUEST_ID);
    expect(output).toContain(SHOP_ID);
    expect(output).toContain("order fetched");
  });
});

describe("requestIdOf", () => {
  it("takes the id proxy.ts set, and makes one up once per request without it", () => {
    expect(requestIdOf(request())).toBe(REQUEST_ID);
    const bare = new Request("http://localhost/api/health");
    expect(requestIdOf(bare)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(bare)).toBe(requestIdOf(bare));
    // A malformed id is replaced by a fresh one. (Not "does not contain 'bad'": a random UUID's hex
    // can spell it, which made this test fail once in CI.)
    expect(requestIdOf(new Request("http://localhost/", { headers: { "x-request-id": "bad id with spaces <script>" } }))).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });
});

describe("scrubText", () => {
  // Shaped like the app's own: invite tokens and receiver keys are randomBytes(24) in base64url, the
  // sandbox's credentials randomBytes(32); about one in 250 of those has no digit.
  const inviteToken = "EKYRyBrpFiZVQMWGcULDRHcc-DiMXfFb";
  const shortInviteToken = "Qm3vT8xk2LpR7nWz";
  const webhookKey = "KxeBTbzKJowJnPIquZZDn_RQtPGHdTmf";
  const letterOnlyToken = "jqnmwEbEIMXVJKEYluXGHRqWKRdjkinbbjxPunWYZQA";
  const hexToken = "34ac7c8c24db7429bd54240ac3b18f1b";
  // A SHA-256 digest has the shape of `openssl rand -hex 32`: both go.
  const hexKey = "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881";
  const upperHexToken = "E6D19245BE1A3D5D2B3E6DEF8196DFDD897AF3F3";

  /** What a JSON logger writes for `msg`, parsed back: every line must stay JSON. */
  function logged(msg: string, fields: Record<string, unknown> = {}): { line: string; parsed: Record<string, unknown> } {
    const { lines, destination } = capture();
    createLogger({ format: "json", level: "info", destination }).info(fields, msg);
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    return { line, parsed: JSON.parse(line) as Record<string, unknown> };
  }

  it.each<[string, string, string]>([
    ["maria.silva+pedidos@example.com.br", "order 65a0000000000000000000aa: maria.silva+pedidos@example.com.br asked again", "asked again"],
    ["Joao_Souza@Empresa.COM", '<a href="mailto:Joao_Souza@Empresa.COM">write</a>', '"mailto:'],
    ["cliente%40example.org", "GET /api/s/shop/orders?email=cliente%40example.org&page=2", "?email="],
    ["ana%2Bteste%40example.com", "GET /settings?invite=ana%2Bteste%40example.com", "?invite="],
  ])("removes the e-mail address %s", (address, text, kept) => {
    const scrubbed = scrubText(text);
    expect(scrubbed).not.toContain(address);
    expect(scrubbed).toContain(kept);
    expect(scrubbed).toContain("[redacted]");
  });

  it("removes e-mail addresses inside a JSON line, which stays JSON", () => {
    const { line, parsed } = logged("could not notify the customer", {
      order: { customer: { name: "Maria", email: "maria@example.com" } },
      err: new Error('platform said: "recipient maria@example.com bounced"'),
    });
    expect(line).not.toContain("maria@example.com");
    expect(parsed).toMatchObject({ order: { customer: { name: "Maria", email: "[redacted]" } }, msg: "could not notify the customer" });
  });

  it("removes a push subscription's endpoint path and keys, keeping which service it is (issue 41)", () => {
    const endpoints = [
      "https://fcm.googleapis.com/fcm/send/dGhpcy1pcy1hLWRldmljZQ:APA91bH",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",
      "https://web.push.apple.com/QGuYdLOx0q9n",
      "http://127.0.0.1:4127/push/abc123",
    ];
    for (const endpoint of endpoints) {
      const { line, parsed } = logged("push refused", {
        endpoint,
        keys: { p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA", auth: "tBHItJI5svbpez7KI4CCXg" },
      });
      expect(line).not.toContain(new URL(endpoint).pathname);
      expect(parsed).toMatchObject({
        endpoint: `${new URL(endpoint).origin}/[redacted]`,
        keys: { p256dh: "[redacted]", auth: "[redacted]" },
      });
    }
  });

  it("leaves what only looks like an address: packages, scoped names, hosts without one", () => {
    for (const text of [
      "next@16.0.3 and react-dom@19.2.0",
      "@marketplace/api/schemas/webhook",
      "node_modules/.pnpm/next@16.0.3_react@19.2.0/node_modules/next",
      "postgres@localhost refused",
    ]) {
      expect(scrubText(text)).toBe(text);
    }
  });

  it.each<[string, string, string]>([
    [inviteToken, `GET https://dash.example.com/invite/${inviteToken}?from=mail`, "https://dash.example.com/invite/[redacted]?from=mail"],
    [shortInviteToken, `sign-in to come back to /invite/${shortInviteToken}`, "/invite/[redacted]"],
    [shortInviteToken, `/api/auth/signin?callbackUrl=%2Finvite%2F${shortInviteToken}`, "%2Finvite%2F[redacted]"],
    [secrets.webhookKey, `POST /api/webhooks/marketplace/${secrets.webhookKey} 401`, "POST /api/webhooks/marketplace/[redacted] 401"],
    [webhookKey, `callback URL is http://localhost:3000/api/webhooks/marketplace/${webhookKey}/`, "/api/webhooks/marketplace/[redacted]/"],
  ])("removes the secret %s from its path, keeping the route", (secret, text, expected) => {
    const scrubbed = scrubText(text);
    expect(scrubbed).not.toContain(secret);
    expect(scrubbed).toContain(expected);
  });

  it("removes the secret of a path in a JSON field, and leaves route patterns", () => {
    const { line, parsed } = logged("request", {
      path: `/invite/${shortInviteToken}`,
      url: `/api/webhooks/marketplace/${secrets.webhookKey}`,
    });
    expect(line).not.toContain(shortInviteToken);
    expect(line).not.toContain(secrets.webhookKey);
    expect(parsed).toMatchObject({ path: "/invite/[redacted]", url: "/api/webhooks/marketplace/[redacted]" });
    // A route pattern names a parameter, not a value.
    const patterns = "rendering /invite/[token] for /api/webhooks/marketplace/[key]";
    expect(scrubText(patterns)).toBe(patterns);
  });

  it.each<[string, string]>([
    [secrets.shortToken, `the platform refused token ${secrets.shortToken}`],
    [secrets.refreshToken, `access token ${secrets.refreshToken} was revoked`],
    [secrets.refreshToken, `refresh_token\t${secrets.refreshToken}`],
    [secrets.clientSecret, `client_secret ${secrets.clientSecret}.`],
    [secrets.shortToken, `Access Token ${secrets.shortToken} refused`],
  ])("removes %s given after a space, not only after = or :", (secret, text) => {
    const scrubbed = scrubText(text);
    expect(scrubbed).not.toContain(secret);
    expect(scrubbed).toContain("[redacted]");
    const { line } = logged(text);
    expect(line).not.toContain(secret);
  });

  it("leaves prose about tokens readable", () => {
    for (const text of [
      "the access token expired, reconnect the shop",
      "refresh token rotated.",
      "token de acesso expirou",
      "password reset requested",
      "signature mismatch on 3 bodies",
      "token 401",
    ]) {
      expect(scrubText(text)).toBe(text);
    }
  });

  it.each([hexToken, hexKey, upperHexToken, inviteToken, webhookKey, letterOnlyToken, `whsec_${hexKey}`])(
    "removes the opaque secret %s",
    (secret) => {
      const { line, parsed } = logged(`the platform answered 401 for ${secret}`, { detail: `key=(${secret})` });
      expect(line).not.toContain(secret);
      expect(parsed.msg).toBe("the platform answered 401 for [redacted]");
    },
  );

  it("removes secrets at the start of a line of a message, and the JSON line stays JSON", () => {
    const address = "maria@example.com";
    const { line, parsed } = logged(
      `platform said:\n${accessToken}\ncustomer\n${secrets.cpf}\n${address}\ntoken=${secrets.shortToken}\n\u0007${hexToken}`,
    );
    for (const secret of [accessToken, secrets.cpf, address, secrets.shortToken, hexToken]) expect(line).not.toContain(secret);
    expect(parsed.msg).toBe("platform said:\n[redacted]\ncustomer\n[redacted]\n[redacted]\ntoken=[redacted]\n\u0007[redacted]");
  });

  it("keeps ids, invoice keys and the words operators read", () => {
    const kept = [
      // A request id (randomUUID), several in a row, and a cuid (Prisma's @default(cuid())).
      "7c9e6679-7425-40de-944b-e07fc1f90ae7",
      "7c9e6679-7425-40de-944b-e07fc1f90ae7,16fd2706-8baf-433b-82eb-8c7e5e6a1b2f",
      "cm3x9k2ab0000qz8h1f4d7e2w",
      // A person id made for a passkey sign-up (c + 24 hex), platform ObjectIds, alone and joined.
      "c5f2a9b1e0d3c4f5a6b7c8d9e",
      "65a0000000000000000000aa",
      "65a0000000000000000000aa_65a0000000000000000000ab",
      "cm3x9k2ab0000qz8h1f4d7e2w-65a0000000000000000000aa",
      // A Brazilian invoice's access key: 44 digits, printed on the DANFE.
      "35240112345678000195550010000012341000012345",
      // Long words and identifiers: a decision record, headers, error codes, Next.js internals.
      "docs/decisions/0004-duplicates-and-durable-processing.md",
      "Content-Security-Policy-Report-Only",
      "Access-Control-Allow-Credentials",
      "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
      "trackSynchronousRequestDataAccessInDev",
      "abortOnSynchronousPlatformIOAccess",
      "pedidos-cancelados-pelo-comprador-antes-do-envio",
      "inconstitucionalissimamente",
    ];
    for (const text of kept) expect(scrubText(`saw ${text} twice`)).toBe(`saw ${text} twice`);
    const request = new Request("http://localhost/api/health", { headers: { "x-request-id": "7c9e6679-7425-40de-944b-e07fc1f90ae7" } });
    const { lines, destination } = capture();
    requestLog(request, { shopId: "cm3x9k2ab0000qz8h1f4d7e2w" }, createLogger({ format: "json", level: "info", destination })).info(
      { orderId: "65a0000000000000000000aa" },
      "order fetched",
    );
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: "info",
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      pid: process.pid,
      requestId: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
      shopId: "cm3x9k2ab0000qz8h1f4d7e2w",
      orderId: "65a0000000000000000000aa",
      msg: "order fetched",
    });
  });
});
