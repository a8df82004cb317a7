import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type * as Sellers from "@/lib/shops/shops.server";
import { startTestSandbox } from "@marketplace/sandbox/testing";
import type * as SandboxEpoch from "../../scripts/lib/sandbox-epoch";
import { connect, useTestDatabase } from "../support/database";

// `npm run dev` follows the sandbox's epoch: when the platform starts over, the dashboard's
// database is cleared of everything it held of the old one (decision 0015).
let url: string;
let sql: pg.Client;
let shops: typeof Sellers;
let epochs: typeof SandboxEpoch;
let dir: string;
let epochFile: string;

beforeAll(async () => {
  url = await useTestDatabase();
  sql = await connect(url);
  shops = await import("@/lib/shops/shops.server");
  epochs = await import("../../scripts/lib/sandbox-epoch");
}, 60_000);

afterAll(async () => {
  await sql?.end();
});

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "dashboard-epoch-"));
  epochFile = path.join(dir, "dashboard-epoch");
  return () => rmSync(dir, { recursive: true, force: true });
});

/** A connected shop with a person who owns it, signed in, with a passkey, and some of everything a shop holds. */
async function shopWithEverything(email: string) {
  const shop = await shops.connectShop({ email, name: "Loja", accessToken: `t-${email}`, scopesRequested: "basic_user_info" });
  const personId = randomUUID();
  await sql.query(`INSERT INTO "Person" ("id", "name", "marketplaceEmail", "lastShopId") VALUES ($1, 'Dona', $2, $3)`, [
    personId,
    email,
    shop.id,
  ]);
  await sql.query(`INSERT INTO "Membership" ("sellerId", "personId", "role") VALUES ($1, $2, 'owner')`, [shop.id, personId]);
  await sql.query(`INSERT INTO "PersonSession" ("id", "personId") VALUES ($1, $2)`, [randomUUID(), personId]);
  await sql.query(`INSERT INTO "Passkey" ("id", "personId", "publicKey", "counter", "name") VALUES ($1, $2, '\\x00', 0, 'laptop')`, [
    randomUUID(),
    personId,
  ]);
  await sql.query(
    `INSERT INTO "PasskeyChallenge" ("id", "challenge", "purpose", "expiresAt") VALUES ($1, 'c', 'authenticate', now() + interval '5 minutes')`,
    [randomUUID()],
  );
  await sql.query(
    `INSERT INTO "OrderMirror" ("sellerId", "orderId", "status", "createdAt", "updatedAt", "customerName", "total", "currency", "normalizer", "itemCount", "deliveries", "syncedAt")
     VALUES ($1, 'o-1', 'new', now(), now(), 'Cliente', 100, 'BRL', 100, 1, '[]', now())`,
    [shop.id],
  );
  await sql.query(`INSERT INTO "Sku" ("id", "sellerId", "code", "title", "payload") VALUES ($1, $2, 'CAM-1', 'Camiseta', '{}')`, [
    randomUUID().replace(/-/g, "").slice(0, 24),
    shop.id,
  ]);
  await sql.query(
    `INSERT INTO "AuditEntry" ("sellerId", "personId", "personName", "kind", "action") VALUES ($1, $2, 'Dona', 'sku', 'sku.create')`,
    [shop.id, personId],
  );
  const eventId = randomUUID();
  await sql.query(
    `INSERT INTO "WebhookEvent" ("id", "sellerId", "receivedAt", "lastReceivedAt", "domain", "status", "rawBody", "bodyHash", "headers", "signatureResult", "valid", "processingState")
     VALUES ($1, $2, now(), now(), 'order.order', 'new', '{}', $1, '{}', 'valid', true, 'pending')`,
    [eventId, shop.id],
  );
  await sql.query(`INSERT INTO "WebhookWork" ("eventId", "availableAt") VALUES ($1, now())`, [eventId]);
  return { sellerId: shop.id, personId };
}

/** Rows in every table of the schema but the migrations' own. */
async function rowsLeft(): Promise<Record<string, number>> {
  const tables = await sql.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    counts[name] = (await sql.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM "${name}"`)).rows[0]!.n;
  }
  return counts;
}

describe("clearing the dashboard's database when the sandbox's epoch changes", () => {
  it("removes every shop and everyone signed in through the old platform, leaving no row of them in any table", async () => {
    await shopWithEverything("loja1@example.com");
    await shopWithEverything("loja2@example.com");
    const before = await rowsLeft();
    expect(before.Seller).toBe(2);
    expect(before.PersonSession).toBe(2);

    const notified: { channel: string; payload: string | undefined }[] = [];
    const listener = await connect(url);
    listener.on("notification", (message) => notified.push({ channel: message.channel, payload: message.payload }));
    await listener.query("LISTEN receiver_changed");
    await listener.query("LISTEN sessions_changed");

    const outcome = await epochs.followEpoch("epoch-1", { databaseUrl: url, epochFile });
    expect(outcome).toEqual({ kind: "cleared", previous: null, epoch: "epoch-1", shops: 2, people: 2 });
    expect(Object.entries(await rowsLeft()).filter(([, count]) => count > 0)).toEqual([]);
    expect(readFileSync(epochFile, "utf8").trim()).toBe("epoch-1");
    expect(epochs.describeOutcome(outcome)).toBe(
      "sandbox started from its seed, and the dashboard's database held another platform's data: cleared 2 shops (and 2 people) from the dashboard's database",
    );
    // A running dashboard hears of it: the shops' receivers and the people's live streams go.
    await expect.poll(() => notified.length).toBe(4);
    expect(notified.filter((entry) => entry.channel === "receiver_changed")).toHaveLength(2);
    await listener.end();
  });

  it("keeps everything while the epoch stays, and clears again at the next one, saying the sandbox was reset", async () => {
    expect(await epochs.followEpoch("epoch-a", { databaseUrl: url, epochFile })).toMatchObject({ kind: "cleared", previous: null });
    const { sellerId: shopId } = await shopWithEverything("loja3@example.com");
    expect(await epochs.followEpoch("epoch-a", { databaseUrl: url, epochFile })).toEqual({ kind: "same" });
    expect((await sql.query(`SELECT 1 FROM "Seller" WHERE "id" = $1`, [shopId])).rowCount).toBe(1);

    const outcome = await epochs.followEpoch("epoch-b", { databaseUrl: url, epochFile });
    expect(outcome).toEqual({ kind: "cleared", previous: "epoch-a", epoch: "epoch-b", shops: 1, people: 1 });
    expect(epochs.describeOutcome(outcome)).toBe("sandbox was reset: cleared 1 shop (and 1 person) from the dashboard's database");
    expect((await sql.query(`SELECT 1 FROM "Seller"`)).rowCount).toBe(0);
  });

  it("says nothing on a first start with an empty database", async () => {
    const outcome = await epochs.followEpoch("epoch-new", { databaseUrl: url, epochFile });
    expect(epochs.describeOutcome(outcome)).toBeNull();
  });

  it("follows a running sandbox: a reset there empties the dashboard's database within a poll", async () => {
    const sandbox = await startTestSandbox({ config: { seedOrders: 0 } });
    const lines: string[] = [];
    const follower = epochs.startEpochFollower({
      sandboxUrl: sandbox.url,
      databaseUrl: url,
      epochFile,
      intervalMs: 50,
      log: (line) => lines.push(line),
    });
    try {
      const epoch = sandbox.handle.context.epoch;
      await expect.poll(() => epochs.readDashboardEpoch(epochFile)).toBe(epoch);
      await shopWithEverything("loja4@example.com");
      expect((await sandbox.api("/_sandbox/reset", { method: "POST", json: {} })).status).toBe(200);
      await expect.poll(() => epochs.readDashboardEpoch(epochFile)).toBe(sandbox.handle.context.epoch);
      expect(sandbox.handle.context.epoch).not.toBe(epoch);
      expect((await sql.query(`SELECT 1 FROM "Seller"`)).rowCount).toBe(0);
      expect(lines).toContain("sandbox was reset: cleared 1 shop (and 1 person) from the dashboard's database");
    } finally {
      follower.stop();
      await sandbox.close();
    }
  });
});

describe("when npm run dev follows the sandbox", () => {
  it("only with the embedded database or DEV_CLEAR_ON_SANDBOX_RESET=1, and only when the dashboard talks to its sandbox", async () => {
    const { parseEnv } = await import("../../lib/env.js");
    expect(epochs.epochFollowing(parseEnv({}))).toEqual({ follow: true });
    const deployment = { DATABASE_URL: "postgresql://dashboard:pw@db.internal:5432/dashboard" };
    expect(epochs.epochFollowing(parseEnv(deployment))).toMatchObject({
      follow: false,
      why: expect.stringContaining("DATABASE_URL is set"),
    });
    expect(epochs.epochFollowing(parseEnv({ ...deployment, DEV_CLEAR_ON_SANDBOX_RESET: "1" }))).toEqual({ follow: true });
    const otherPlatform = {
      MARKETPLACE_AUTH_URL: "https://auth.marketplace.example",
      MARKETPLACE_BASE_URL: "https://api.marketplace.example",
    };
    expect(epochs.epochFollowing(parseEnv(otherPlatform))).toMatchObject({ follow: false });
    expect(epochs.epochFollowing(parseEnv({ MARKETPLACE_BASE_URL: "http://localhost:4999" }))).toMatchObject({ follow: false });
  });
});
