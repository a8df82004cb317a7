import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { currencySchema } from "@marketplace/api/schemas/common";
import { orderSortSchema } from "@marketplace/api/schemas/order";
import { SCOPES } from "@marketplace/api/schemas/scopes";
import { SKU_STATUS } from "@marketplace/api/schemas/sku";
import { WEBHOOK_DOMAINS } from "@marketplace/api/schemas/webhook";
import { FORM_BODY_LIMIT_BYTES, JSON_BODY_LIMIT_BYTES } from "./body-limit";
import { buildOpenApiDocument, type JsonObject } from "./openapi";
import { OpenApiChecker } from "./openapi-check";
import { lintOpenApiDocument } from "./openapi-lint";
import { DOCS_ASSETS_PATH, DOCS_CONTENT_SECURITY_POLICY } from "./openapi-docs";
import {
  ALL_MARKETPLACE_SCOPES,
  assertDocumentedResponse,
  authorizeQuery,
  exchangeCode,
  obtainAccessToken,
  OpenApiMismatchError,
  startTestSandbox,
  tokenFields,
  type TestSandbox,
} from "./testing";

const document = buildOpenApiDocument();
type Operations = Record<string, Record<string, JsonObject>>;
const paths = document.paths as Operations;
const schemas = (document.components as { schemas: Record<string, JsonObject> }).schemas;

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ config: { seedOrders: 3 } });
});
afterAll(() => sandbox.close());

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 (checked offline against the official schema)", async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    // The validator does refuse a broken document, so the line above means something.
    const { info: _info, ...broken } = document;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it("has every endpoint of the spec (Endpoints 1–10), both callback URL paths included", () => {
    const expected = [
      "get /auth/integradores/oauth",
      "post /v1.0/integradores/oauth/token",
      "post /v1.0/integradores/basic_user_info",
      "post /v1.0/marketplace/portfolios/skus",
      "post /v1.0/marketplace/portfolios/prices",
      "get /v1.0/marketplace/portfolios/prices/{id}",
      "get /v1.0/marketplace/portfolios/prices",
      "get /v1.0/marketplace/orders/{id}",
      "get /v1.0/marketplace/orders",
      ...["/v1.0/marketplace/webhooks/url", "/v1.0/webhooks"].flatMap((path) =>
        ["post", "get", "delete"].map((method) => `${method} ${path}`),
      ),
    ];
    const present = Object.entries(paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    expect(present).toEqual(expect.arrayContaining(expected));
    // The only operation beyond the spec's is the sandbox's consent form.
    expect(present.filter((operation) => !expected.includes(operation))).toEqual(["post /auth/integradores/oauth"]);
    const operationIds = Object.values(paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it("documents every notification domain of the spec as a webhook, with its statuses and the signature header", () => {
    const webhooks = document.webhooks as Record<string, { post: JsonObject }>;
    expect(Object.keys(webhooks).sort()).toEqual(Object.keys(WEBHOOK_DOMAINS).sort());
    const checker = new OpenApiChecker(document);
    expect(
      checker.checkNotification(JSON.stringify({ data: { domain: "order.order", status: "approved", order_id: "a".repeat(24) } })),
    ).toEqual([]);
    expect(
      checker.checkNotification(
        JSON.stringify({ data: { domain: "portfolio.sku", status: "created", id: "b".repeat(24), code: "CAM-1" } }),
      ),
    ).toEqual([]);
    expect(
      checker.checkNotification(JSON.stringify({ data: { domain: "portfolio.sku", status: "updated", id: "b".repeat(24) } })),
    ).not.toEqual([]);
    expect(checker.checkNotification(JSON.stringify({ data: { domain: "order.order", status: "new", id: "c".repeat(24) } }))).not.toEqual(
      [],
    );
    const signature = (webhooks["order.order"]!.post.parameters as JsonObject[])[0];
    expect(signature).toMatchObject({ name: "X-SVC-Signature", in: "header", required: true });
    // The signature is each notification's security: a key in that header, an HMAC over the raw body.
    for (const webhook of Object.values(webhooks)) expect(webhook.post.security).toEqual([{ webhookSignature: [] }]);
    const scheme = (document.components as { securitySchemes: Record<string, JsonObject> }).securitySchemes.webhookSignature;
    expect(scheme).toMatchObject({ type: "apiKey", in: "header", name: "X-SVC-Signature" });
    expect(scheme!.description).toMatch(/HMAC-SHA256 of the raw request body/);
  });

  it("introduces itself to a reader of /docs without repository paths", () => {
    const info = document.info as { description: string; summary: string };
    expect(`${info.summary}\n${info.description}`).not.toMatch(/sandbox\/|packages\/|\.ts\b|README/);
  });

  it("passes Redocly's recommended rules with no error (npm run lint:openapi), offline", () => {
    const result = lintOpenApiDocument(document);
    expect(result.problems.filter((problem) => problem.severity === "error")).toEqual([]);
    // The warnings left, each for a reason: the project has no licence to name; the consent form
    // answers with redirects and error pages, never 2XX; `Error` is the union of the error bodies,
    // for code generators, while each response names the code it carries.
    expect(result.problems.map((problem) => `${problem.ruleId} ${problem.pointer}`).sort()).toEqual([
      "info-license #/info",
      "no-unused-components #/components/schemas/Error",
      "operation-2xx-response #/paths/~1auth~1integradores~1oauth/post/responses",
    ]);
  });

  it("is generated from the shared zod schemas, not written by hand", () => {
    const { $schema: _schema, ...currency } = z.toJSONSchema(currencySchema) as JsonObject;
    expect(schemas.Currency).toEqual({ ...currency, description: "ISO-4217 code" });
    // One response schema per SKU import status code of the spec, named after SKU_STATUS.
    for (const status of Object.values(SKU_STATUS)) {
      const named = Object.values(schemas).find(
        (schema) => (schema.properties as Record<string, JsonObject> | undefined)?.statusMessage?.const === status.statusMessage,
      );
      expect(named?.properties).toMatchObject({ statusCode: { const: status.statusCode } });
    }
    // Shared parts are components referred to, not copies.
    expect(JSON.stringify(schemas.Order)).toContain('"$ref":"#/components/schemas/Customer"');
  });

  it("asks for a bearer token with the spec's scopes on every API call, and for none on the OAuth endpoints", () => {
    const security = (method: string, path: string) => paths[path]![method]!.security;
    expect(security("post", "/v1.0/marketplace/portfolios/skus")).toEqual([{ bearerAuth: ["portfolio:write", "portfolio:read"] }]);
    expect(security("post", "/v1.0/marketplace/portfolios/prices")).toEqual([{ bearerAuth: ["portfolio:write"] }]);
    expect(security("get", "/v1.0/marketplace/orders/{id}")).toEqual([{ bearerAuth: ["order-order:read"] }]);
    expect(security("get", "/v1.0/webhooks")).toEqual([{ bearerAuth: [] }]);
    expect(security("get", "/auth/integradores/oauth")).toEqual([]);
    expect(security("post", "/v1.0/integradores/oauth/token")).toEqual([]);
    const scheme = (document.components as { securitySchemes: Record<string, JsonObject> }).securitySchemes.bearerAuth;
    expect(scheme).toMatchObject({ type: "http", scheme: "bearer" });
    for (const scope of SCOPES) expect(scheme!.description).toContain(`\`${scope}\``);
  });

  it("lists the parameters the spec names for each list, and the _sort values each takes", () => {
    const parameters = (path: string) => paths[path]!.get!.parameters as { name: string; schema: JsonObject }[];
    const names = (path: string) => parameters(path).map((parameter) => parameter.name);
    expect(names("/v1.0/marketplace/portfolios/prices")).toEqual(expect.arrayContaining(["sku", "type", "_limit", "_offset", "_sort"]));
    expect(names("/v1.0/marketplace/orders")).toEqual(
      expect.arrayContaining(["status", "id", "updated_at__ge", "updated_at__le", "_limit", "_offset", "_sort"]),
    );
    const limit = parameters("/v1.0/marketplace/orders").find((parameter) => parameter.name === "_limit");
    expect(limit?.schema).toMatchObject({ type: "integer", minimum: 1, default: 50 });
    const sortPattern = (path: string) =>
      new RegExp(parameters(path).find((parameter) => parameter.name === "_sort")!.schema.pattern as string);
    for (const value of orderSortSchema.options) expect(sortPattern("/v1.0/marketplace/orders").test(value)).toBe(true);
    expect(sortPattern("/v1.0/marketplace/orders").test("created_at:desc,updated_at:asc")).toBe(true);
    expect(sortPattern("/v1.0/marketplace/orders").test("status:asc")).toBe(false);
    expect(sortPattern("/v1.0/marketplace/portfolios/prices").test("created_at")).toBe(true);
    expect(sortPattern("/v1.0/marketplace/portfolios/prices").test("value:desc")).toBe(false);
  });
});

describe("GET /openapi.json", () => {
  it("serves the document as JSON", async () => {
    const response = await sandbox.api("/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("application/json");
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(document)));
  });
});

describe("GET /docs", () => {
  it("serves the reference page under a strict CSP: no inline script, no eval, nothing from elsewhere", async () => {
    const response = await sandbox.api("/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/html");
    const csp = response.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toBe(DOCS_CONTENT_SECURITY_POLICY);
    const directives = new Map(
      csp
        .split(";")
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(directives.get("default-src")).toEqual(["'none'"]);
    expect(directives.get("script-src")).toEqual(["'self'"]);
    expect(csp).not.toContain("unsafe-eval");
    for (const [name, values] of directives) if (name !== "img-src") expect(values.join(" ")).not.toMatch(/https?:|\*/);
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");

    const page = await response.text();
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="/);
      expect(body!.trim()).toBe("");
    }
    expect(page).not.toMatch(/\son[a-z]+=/i);
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page).toContain('data-openapi-url="/openapi.json"');
  });

  it("serves every file the page loads from the sandbox itself", async () => {
    const page = await (await sandbox.api("/docs")).text();
    const files = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!).filter((url) => url.startsWith(DOCS_ASSETS_PATH));
    expect(files.map((url) => url.slice(DOCS_ASSETS_PATH.length + 1)).sort()).toEqual([
      "docs.css",
      "docs.js",
      "swagger-ui-bundle.js",
      "swagger-ui.css",
    ]);
    for (const url of files) {
      const asset = await sandbox.api(url);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("Content-Type")).toMatch(url.endsWith(".css") ? /^text\/css/ : /^text\/javascript/);
      expect(asset.headers.get("X-Content-Type-Options")).toBe("nosniff");
    }
    const bundle = await (await sandbox.api(`${DOCS_ASSETS_PATH}/swagger-ui-bundle.js`)).text();
    expect(bundle).toContain("SwaggerUIBundle");
    const start = await (await sandbox.api(`${DOCS_ASSETS_PATH}/docs.js`)).text();
    expect(start).toContain('getAttribute("data-openapi-url")');
    // Swagger UI would send the document to an online validator by default.
    expect(start).toContain("validatorUrl: null");
  });

  it.each(["nope.js", "..%2Fpackage.json", "index.html", "swagger-initializer.js"])("serves nothing else: %s → 404", async (file) => {
    expect((await sandbox.api(`${DOCS_ASSETS_PATH}/${file}`)).status).toBe(404);
  });
});

describe("the test harness's check against the document", () => {
  const checker = new OpenApiChecker(document);
  const answer = (status: number, body: unknown, headers: Record<string, string> = { "Content-Type": "application/json" }) => ({
    method: "GET",
    url: "http://localhost/v1.0/marketplace/portfolios/prices/0123456789abcdef01234567",
    status,
    headers: new Headers(headers),
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const price = {
    id: "0123456789abcdef01234567",
    sku: "CAM-1",
    type: "sell",
    value: 4990,
    currency: "BRL",
    normalizer: 100,
    extras: {},
    created_at: "2026-06-01T12:00:00.000Z",
    priceHistory: [],
  };

  it("accepts an answer the operation declares", () => {
    expect(checker.checkResponse(answer(200, price))).toEqual({
      operation: "GET /v1.0/marketplace/portfolios/prices/{id}",
      response: "GET /v1.0/marketplace/portfolios/prices/{id} 200",
      problems: [],
    });
  });

  it.each<[string, ReturnType<typeof answer>, RegExp]>([
    ["a field missing", answer(200, { ...price, priceHistory: undefined }), /must have required property 'priceHistory'/],
    ["a field the schema does not have", answer(200, { ...price, rogue: 1 }), /must NOT have additional properties: rogue/],
    ["a value of another form", answer(200, { ...price, currency: "brl" }), /\/currency must match pattern/],
    ["an undeclared status", answer(409, { error: { code: "conflict", message: "x" } }), /status 409 is not declared/],
    ["another media type", answer(200, "<p>price</p>", { "Content-Type": "text/html" }), /Content-Type text\/html is not declared/],
    [
      "an error with another code",
      answer(404, { error: { code: "invalid_query", message: "x" } }),
      /\/error\/code must be equal to constant/,
    ],
    [
      "a 401 without WWW-Authenticate",
      answer(401, { error: { code: "invalid_token", message: "x" } }),
      /header WWW-Authenticate is missing/,
    ],
  ])("flags %s", (_name, given, problem) => {
    expect(checker.checkResponse(given).problems.join("\n")).toMatch(problem);
  });

  it("leaves alone what the document does not describe (the control API, assets)", () => {
    expect(checker.checkResponse({ ...answer(200, {}), url: "http://localhost/_sandbox/clock" })).toEqual({
      operation: null,
      response: null,
      problems: [],
    });
  });

  it("fails the test's call with OpenApiMismatchError", async () => {
    const forged = new Response(JSON.stringify({ ...price, value: "4990" }), {
      status: 200,
      headers: { "Content-Type": "application/json" },
    });
    await expect(assertDocumentedResponse("GET", answer(200, price).url, forged)).rejects.toThrow(OpenApiMismatchError);
    await expect(assertDocumentedResponse("GET", answer(200, price).url, forged)).rejects.toThrow(/\/value must be integer/);
  });
});

// Every declared failure that comes from the checks all API calls share (sandbox/auth.ts), the body
// limit, the path parameter and the list query, made to happen on every operation that declares
// it, through the harness, which checks each answer against the operation's declared response.
// The success answers and the resources' own failures are made by each resource's tests.
describe("each operation's declared failures are what the sandbox answers", () => {
  let fullToken: string;
  const OBJECT_ID = "0123456789abcdef01234567";
  const apiOperations = Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => (operation.security as unknown[]).length > 0)
      .map(([method, operation]) => ({
        path,
        method: method.toUpperCase(),
        operation,
        declared: Object.keys(operation.responses as JsonObject),
      })),
  );
  const concrete = (path: string, id = OBJECT_ID) => path.replace("{id}", id);

  beforeEach(async () => {
    sandbox.handle.reset();
    fullToken = await obtainAccessToken(sandbox.url);
  });

  it.each(apiOperations.map((entry) => [`${entry.method} ${entry.path}`, entry] as const))(
    "%s",
    async (_name, { path, method, operation, declared }) => {
      const call = (token?: string, target = concrete(path)) =>
        sandbox.api(target, { method, ...(token ? { token } : {}), ...(method === "POST" ? { json: {} } : {}) });
      const produced: string[] = [];
      const expectStatus = async (response: Response, status: string) => {
        expect(response.status).toBe(Number(status));
        produced.push(status);
      };

      await expectStatus(await call(), "401");
      const required = ((operation.security as Record<string, string[]>[])[0]!.bearerAuth ?? []) as string[];
      if (declared.includes("403")) {
        const other = ALL_MARKETPLACE_SCOPES.find((scope) => !required.includes(scope))!;
        await expectStatus(await call(await obtainAccessToken(sandbox.url, { scopes: [other] })), "403");
      }
      const withFault = async (faults: object, status: string, warmUp = false) => {
        await sandbox.api("/_sandbox/faults", { method: "POST", json: faults });
        if (warmUp) await sandbox.api("/v1.0/webhooks", { token: fullToken });
        await expectStatus(await call(fullToken), status);
        await sandbox.api("/_sandbox/faults", { method: "DELETE" });
      };
      await withFault({ rateLimitPerMinute: 1 }, "429", true);
      await withFault({ errorRate: 1 }, "500");
      await withFault({ maintenance: true }, "503");
      if (declared.includes("413")) {
        const big = JSON.stringify({ padding: "x".repeat(JSON_BODY_LIMIT_BYTES) });
        await expectStatus(
          await sandbox.api(path, { method, token: fullToken, body: big, headers: { "Content-Type": "application/json" } }),
          "413",
        );
      }
      const content = (operation.requestBody as { content?: JsonObject } | undefined)?.content;
      if (content?.["application/json"]) {
        // A body that is not JSON (what a cross-site form sends) is refused, in the operation's error shape.
        await expectStatus(
          await sandbox.api(path, { method, token: fullToken, body: "{}", headers: { "Content-Type": "text/plain" } }),
          "400",
        );
      }
      if (path.includes("{id}")) {
        await expectStatus(await call(fullToken, concrete(path, "not-an-object-id")), "400");
        await expectStatus(await call(fullToken), "404");
      } else if (method === "GET" && (operation.parameters as JsonObject[] | undefined)?.some((parameter) => parameter.name === "_sort")) {
        await expectStatus(await call(fullToken, `${path}?no_such_field=1`), "400");
      }
      expect(produced.every((status) => declared.includes(status))).toBe(true);
    },
  );

  it("the OAuth endpoints' pages, redirects and limits", async () => {
    const authorize = (query: string) => sandbox.api(`/auth/integradores/oauth?${query}`, { redirect: "manual" });
    expect((await authorize(authorizeQuery())).status).toBe(200);
    expect((await authorize(authorizeQuery({ clientId: "nobody" }))).status).toBe(400);
    const denied = await authorize(authorizeQuery({ scopes: ["NOT-A-SCOPE"], state: "s" }));
    expect(denied.status).toBe(302);
    expect(new URL(denied.headers.get("Location")!).searchParams.get("error")).toBe("invalid_scope");
    const bigForm = `login=${"x".repeat(FORM_BODY_LIMIT_BYTES)}`;
    const consent = await sandbox.api(`/auth/integradores/oauth?${authorizeQuery()}`, {
      method: "POST",
      body: bigForm,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    expect(consent.status).toBe(413);
    expect((await exchangeCode(sandbox.url, tokenFields("a".repeat(FORM_BODY_LIMIT_BYTES)))).status).toBe(413);
    expect((await exchangeCode(sandbox.url, tokenFields("unknown-code"))).status).toBe(400);
  });
});
