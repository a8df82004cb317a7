import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "@/lib/env";
import { createLogger, log, requestIdOf, requestLog, shopLog } from "@/lib/log.server";
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
    expect(requestIdOf(new Request("http://localhost/", { headers: { "x-request-id": "bad id with spaces <script>" } }))).not.toContain(
      "bad",
    );
  });
});
