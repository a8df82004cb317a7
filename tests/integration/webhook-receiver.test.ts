import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ReceiverRoute from "@/app/api/webhooks/marketplace/[key]/route";
import { signWebhookBody } from "@/lib/webhooks/signature";

// The receiver route against a real, migrated SQLite database (no mocks): what the platform
// sees (status codes) and what the event log keeps.
const dir = mkdtempSync(path.join(process.cwd(), ".data", "receiver-test-"));
const dbFile = path.join(dir, "receiver.db");
const TOKEN = "test_secret_key";

let POST: typeof ReceiverRoute.POST;
let webhookKey: string;
let sqlite: Database.Database;

beforeAll(async () => {
  execFileSync("npx", ["tsx", "scripts/migrate.ts"], { env: { ...process.env, DATABASE_URL: `file:${dbFile}` }, stdio: "pipe" });
  process.env.DATABASE_URL = `file:${dbFile}`;
  ({ POST } = await import("@/app/api/webhooks/marketplace/[key]/route"));
  const { connectSeller } = await import("@/lib/data/sellers");
  const seller = await connectSeller({ email: "seller@example.com", name: "Loja Demo", accessToken: TOKEN, scopesRequested: "basic_user_info" });
  sqlite = new Database(dbFile);
  webhookKey = (sqlite.prepare('SELECT "webhookKey" FROM "Connection" WHERE "sellerId" = ?').get(seller.id) as { webhookKey: string }).webhookKey;
}, 60_000);

afterAll(() => {
  sqlite?.close();
  rmSync(dir, { recursive: true, force: true });
});

function deliver(body: string | Uint8Array, signature: string | null, options: { key?: string; chunked?: boolean } = {}) {
  const headers = new Headers({ "content-type": "application/json" });
  if (signature !== null) headers.set("X-SVC-Signature", signature);
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  let requestBody: BodyInit = Buffer.from(bytes);
  if (options.chunked) {
    requestBody = new ReadableStream({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += 8192) controller.enqueue(bytes.slice(offset, offset + 8192));
        controller.close();
      },
    });
  } else {
    headers.set("content-length", String(bytes.length));
  }
  const key = options.key ?? webhookKey;
  const request = new Request(`http://localhost/api/webhooks/marketplace/${key}`, {
    method: "POST",
    headers,
    body: requestBody,
    ...(options.chunked ? { duplex: "half" } : {}),
  } as RequestInit);
  return POST(request, { params: Promise.resolve({ key }) });
}

const rows = () => sqlite.prepare('SELECT * FROM "WebhookEvent" ORDER BY "receivedAt"').all() as Record<string, unknown>[];
const countFor = (body: string) =>
  (sqlite.prepare('SELECT COUNT(*) AS n FROM "WebhookEvent" WHERE "rawBody" = ?').get(body) as { n: number }).n;

describe("POST /api/webhooks/marketplace/{key}", () => {
  it("stores an authentic order event (order_id form) and acknowledges it", async () => {
    const body = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: "65a000000000000000000001" } });
    const response = await deliver(body, signWebhookBody(body, TOKEN));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, duplicate: false });
    const row = rows().find((r) => r.rawBody === body);
    expect(row).toMatchObject({ domain: "order.order", status: "new", orderId: "65a000000000000000000001", valid: 1, signatureResult: "valid" });
  });

  it("stores the id/code form and the `order` alias", async () => {
    const sku = JSON.stringify({ data: { domain: "portfolio.sku", status: "created", id: "65b000000000000000000001", code: "SKU-1" } });
    const alias = JSON.stringify({ data: { domain: "order", status: "approved", id: "65a000000000000000000002", code: "A-2" } });
    expect((await deliver(sku, signWebhookBody(sku, TOKEN))).status).toBe(200);
    expect((await deliver(alias, signWebhookBody(alias, TOKEN))).status).toBe(200);
    expect(rows().find((r) => r.rawBody === sku)).toMatchObject({ domain: "portfolio.sku", resourceId: "65b000000000000000000001", code: "SKU-1" });
    expect(rows().find((r) => r.rawBody === alias)).toMatchObject({ domain: "order.order", orderId: "65a000000000000000000002" });
  });

  it("stores a duplicate once, counts it, and still acknowledges it", async () => {
    const body = JSON.stringify({ data: { domain: "order.delivery", status: "posted", order_id: "o-dup", delivery_id: "d-dup" } });
    const signature = signWebhookBody(body, TOKEN);
    expect(await (await deliver(body, signature)).json()).toEqual({ received: true, duplicate: false });
    const second = await deliver(body, signature);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ received: true, duplicate: true });
    await deliver(body, signature);
    expect(countFor(body)).toBe(1);
    expect(rows().find((r) => r.rawBody === body)?.duplicateCount).toBe(2);
  });

  it.each([
    ["a missing signature", () => null],
    ["a signature with the wrong key", (body: string) => signWebhookBody(body, "not-the-token")],
    ["a signature of another body", () => signWebhookBody('{"data":{}}', TOKEN)],
    ["a malformed signature", () => "%%%not-base64%%%"],
    ["a signature of the wrong length", (body: string) => signWebhookBody(body, TOKEN).slice(0, 20)],
  ])("answers 401 to %s and stores nothing", async (_label, sign) => {
    const body = JSON.stringify({ data: { domain: "order.order", status: "cancelled", order_id: `forged-${Math.random()}` } });
    const response = await deliver(body, sign(body));
    expect(response.status).toBe(401);
    expect(countFor(body)).toBe(0);
  });

  it("answers 401 when one byte of a signed body changes", async () => {
    const body = JSON.stringify({ data: { domain: "order.order", status: "finished", order_id: "o-tamper" } });
    const signature = signWebhookBody(body, TOKEN);
    const tampered = body.replace("finished", "cancelled").replace("o-tamper", "o-tampe");
    expect((await deliver(tampered, signature)).status).toBe(401);
    expect(countFor(tampered)).toBe(0);
  });

  it("answers 413 to a body over 64 KiB, declared or streamed, and stores nothing", async () => {
    const before = rows().length;
    const big = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: "x", pad: "a".repeat(70_000) } });
    expect((await deliver(big, signWebhookBody(big, TOKEN))).status).toBe(413);
    expect((await deliver(big, signWebhookBody(big, TOKEN), { chunked: true })).status).toBe(413);
    const exactlyAtCap = new Uint8Array(64 * 1024).fill(0x20);
    expect((await deliver(exactlyAtCap, signWebhookBody(exactlyAtCap, TOKEN))).status).toBe(200);
    expect(rows().length).toBe(before + 1);
  });

  it("keeps an authentic body that is not JSON or not a known shape, marked invalid, and acknowledges it", async () => {
    for (const body of ["{oops", JSON.stringify({ data: { domain: "weather", status: "rainy", id: "1" } })]) {
      const response = await deliver(body, signWebhookBody(body, TOKEN));
      expect(response.status).toBe(200);
      const row = rows().find((r) => r.rawBody === body);
      expect(row).toMatchObject({ valid: 0 });
      expect(row?.invalidReason).toBeTruthy();
    }
  });

  it("answers 404 to an unknown receiver key", async () => {
    const body = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: "o-404" } });
    expect((await deliver(body, signWebhookBody(body, TOKEN), { key: "no-such-key" })).status).toBe(404);
  });

  it("answers 503 when the database cannot commit, so the platform retries", async () => {
    sqlite.exec(`CREATE TRIGGER fail_insert BEFORE INSERT ON "WebhookEvent" BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END;`);
    try {
      const body = JSON.stringify({ data: { domain: "order.order", status: "new", order_id: "o-503" } });
      const response = await deliver(body, signWebhookBody(body, TOKEN));
      expect(response.status).toBe(503);
      expect(countFor(body)).toBe(0);
    } finally {
      sqlite.exec("DROP TRIGGER fail_insert");
    }
  });

  it("processes events after acknowledging them", async () => {
    const body = JSON.stringify({ data: { domain: "order.order", status: "approved", order_id: "o-processed" } });
    await deliver(body, signWebhookBody(body, TOKEN));
    await expect.poll(() => rows().find((r) => r.rawBody === body)?.processingState).toBe("processed");
    const invalid = "{still not json";
    await deliver(invalid, signWebhookBody(invalid, TOKEN));
    await expect.poll(() => rows().find((r) => r.rawBody === invalid)?.processingState).toBe("skipped");
  });
});
