import { createHash } from "node:crypto";
import fc from "fast-check";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ReceiverRoute from "@/app/api/webhooks/marketplace/[key]/route";
import { sampleSku } from "@marketplace/api/schemas/fixtures";
import { signWebhookBody } from "@marketplace/api/signature";
import { obtainAccessToken, startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { connect, useTestDatabase } from "../support/database";

// Property-based: whatever arrives, the receiver stores nothing unsigned and never fails with a 5xx
// while the database is up; whatever SKU is sent, the sandbox refuses an invalid one with -4 and a
// field path. The number of cases run is printed.
let sql: pg.Client;
let POST: typeof ReceiverRoute.POST;
let webhookKey: string;
let sandbox: TestSandbox;
let token: string;
const TOKEN = "property-token";

beforeAll(async () => {
  // Hundreds of mis-signed bodies within a minute: past WEBHOOK_FAILED_SIGNATURES_PER_MINUTE they
  // would answer 429 (tests/integration/webhook-callback-scope.test.ts checks that limit); here
  // each one must be looked at and refused for its signature.
  process.env.WEBHOOK_FAILED_SIGNATURES_PER_MINUTE = "100000";
  const url = await useTestDatabase();
  sql = await connect(url);
  ({ POST } = await import("@/app/api/webhooks/marketplace/[key]/route"));
  const { connectShop } = await import("@/lib/shops/shops.server");
  const shop = await connectShop({ email: "props@example.com", name: "Loja", accessToken: TOKEN, scopesRequested: "basic_user_info" });
  webhookKey = (await sql.query<{ webhookKey: string }>('SELECT "webhookKey" FROM "Connection" WHERE "sellerId" = $1', [shop.id])).rows[0]!
    .webhookKey;
  sandbox = await startTestSandbox({ config: { seedOrders: 0 } });
  token = await obtainAccessToken(sandbox.url);
}, 60_000);

afterAll(async () => {
  const { stopWebhookProcessing } = await import("@/features/webhooks/process/process.server");
  await stopWebhookProcessing(100);
  await sql?.end();
  await sandbox?.close();
});

/** Receipts of this body, and how many times copies were counted on them. */
const storedWithHash = async (body: Uint8Array) =>
  (
    await sql.query<{ n: number }>(
      `SELECT (COUNT(*) + COALESCE(SUM("duplicateCount"), 0))::int AS n FROM "WebhookEvent" WHERE "bodyHash" = $1`,
      [createHash("sha256").update(body).digest("hex")],
    )
  ).rows[0]!.n;

describe("the receiver, for any request", () => {
  it("stores only what the seller's token signed, and answers no 5xx", async () => {
    const body = fc.oneof(
      fc.uint8Array({ maxLength: 2_048 }),
      // Past the 64 KiB cap: refused (413) before anything is checked or stored.
      fc.integer({ min: 64 * 1024 + 1, max: 70_000 }).map((size) => new Uint8Array(size).fill(0x20)),
      fc.json().map((text) => new TextEncoder().encode(text)),
      fc
        .record({
          data: fc.record(
            { domain: fc.string(), status: fc.string(), order_id: fc.string(), id: fc.string(), code: fc.string() },
            { requiredKeys: [] },
          ),
        })
        .map((value) => new TextEncoder().encode(JSON.stringify(value))),
    );
    const signature = fc.oneof(
      fc.constant("valid" as const),
      fc.constant("wrong-key" as const),
      fc.constant(null),
      fc.string({ maxLength: 80 }),
      fc.base64String({ maxLength: 64 }),
    );
    const extraHeaders = fc.dictionary(
      fc.constantFrom("x-request-id", "user-agent", "content-type", "x-forwarded-for"),
      fc.string({ maxLength: 100 }).filter((value) => !/[\r\n\0]/.test(value) && value.trim() === value),
    );
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(body, signature, extraHeaders, async (bytes, sign, headers) => {
        cases++;
        const requestHeaders = new Headers(headers);
        const header =
          sign === "valid" ? signWebhookBody(bytes, TOKEN) : sign === "wrong-key" ? signWebhookBody(bytes, "someone-else") : sign;
        if (header !== null) {
          try {
            requestHeaders.set("X-SVC-Signature", header);
          } catch {
            return; // not a value HTTP can carry
          }
        }
        const before = await storedWithHash(bytes);
        const response = await POST(
          new Request(`http://localhost/api/webhooks/marketplace/${webhookKey}`, {
            method: "POST",
            headers: requestHeaders,
            body: Buffer.from(bytes),
          }),
          {
            params: Promise.resolve({ key: webhookKey }),
          },
        );
        expect(response.status).toBeLessThan(500);
        const authentic =
          sign === "valid" || (typeof sign === "string" && sign !== "wrong-key" && header === signWebhookBody(bytes, TOKEN));
        if (bytes.length > 64 * 1024) {
          expect(response.status).toBe(413);
          expect(await storedWithHash(bytes)).toBe(before);
        } else if (authentic) expect(response.status).toBe(200);
        else {
          expect(response.status).toBe(401);
          expect(await storedWithHash(bytes)).toBe(before);
        }
      }),
      { numRuns: 300 },
    );
    console.log(`receiver property: ${cases} cases run`);
  }, 120_000);
});

describe("the sandbox's SKU import, for any invalid SKU", () => {
  it("answers statusCode -4 with the path of a field in error", async () => {
    // A valid SKU with one field replaced by something of the wrong kind or out of the spec's limits.
    const broken = fc.oneof(
      fc.record({
        field: fc.constant("code"),
        value: fc.oneof(fc.constant(""), fc.string({ minLength: 51, maxLength: 80 }), fc.integer(), fc.constant(null)),
      }),
      fc.record({
        field: fc.constant("brand"),
        value: fc.oneof(fc.constant(""), fc.string({ minLength: 71, maxLength: 90 }), fc.boolean()),
      }),
      fc.record({
        field: fc.constant("title"),
        value: fc.oneof(fc.constant({}), fc.constant({ pt_BR: "" }), fc.string(), fc.constant([])),
      }),
      fc.record({
        field: fc.constant("identifiers"),
        value: fc.oneof(
          fc.constant([{ type: "EAN", value: "123" }]),
          fc.constant("EAN"),
          fc.constant([{ type: "GTIN", value: "7891000315507" }]),
        ),
      }),
      fc.record({ field: fc.constant("tags"), value: fc.oneof(fc.constant([""]), fc.constant(["x".repeat(101)]), fc.constant("tag")) }),
      fc.record({ field: fc.constant("dimensions"), value: fc.oneof(fc.constant("3x4"), fc.constant([{ name: "package" }])) }),
    );
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(broken, fc.integer({ min: 0, max: 1_000_000 }), async ({ field, value }, n) => {
        cases++;
        const sku = { ...sampleSku(`PROP-${n}`), [field]: value };
        const response = await sandbox.api("/v1.0/marketplace/portfolios/skus", { method: "POST", token, json: sku });
        const answer = (await response.json()) as { statusCode: number; errors: { field: string }[] };
        expect(response.status).toBe(400);
        expect(answer.statusCode).toBe(-4);
        expect(answer.errors.length).toBeGreaterThan(0);
        expect(
          answer.errors.some(
            (error) => error.field === field || error.field.startsWith(`${field}.`) || error.field.startsWith(`${field}[`),
          ),
        ).toBe(true);
      }),
      { numRuns: 200 },
    );
    console.log(`SKU import property: ${cases} cases run`);
  }, 120_000);
});
