import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase, databaseName, dropDatabase, withDatabase } from "../../prisma/pg-admin";
import { connect } from "../support/database";

// Issue 27: "Existing sellers migrate to a shop with its person as owner; nothing is lost; a
// session cookie issued before keeps working." This proves the data half on a real database: it
// is built at the schema of the day before (every migration before people_shops_roles, applied as
// plain SQL), filled with three sellers and their rows, then migrated. Each seller gets one person
// (its name and marketplace email) who owns the shop and nobody else; each signed-in session row
// carries over to that person with its id and start (the cookie part is proven elsewhere); every
// other table keeps every row, byte for byte; SellerSession and Connection.sessionEpoch are gone.
const MIGRATION = "20261125184320_people_shops_roles";
const migrationsDir = path.resolve(import.meta.dirname, "../../prisma/migrations");
const migrations = readdirSync(migrationsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const before = migrations.filter((name) => name < MIGRATION);
const fromMigration = migrations.filter((name) => name >= MIGRATION);

// A run-prefixed name (test_<pid>_...): the global teardown drops it even if afterAll does not run.
const templateUrl = inject("templateDatabaseUrl");
const url = withDatabase(templateUrl, `${databaseName(templateUrl).replace(/_template$/, "")}_people_${randomBytes(4).toString("hex")}`);

const shops = [
  { id: "cmseller0000ana000000001", email: "ana@lojadaana.com.br", name: "Loja da Ana", createdAt: "2026-03-02 14:05:11.250" },
  { id: "cmseller0000bruno0000002", email: "bruno.costa@example.com", name: "Bruno's Bikes", createdAt: "2026-06-17 09:30:00.000" },
  { id: "cmseller0000ceu000000003", email: "contato@ceuazul.com", name: "Céu Azul Decoração", createdAt: "2026-11-01 22:47:59.999" },
] as const;
const [ana, bruno, ceu] = shops;
// Ana has signed in on two devices, Bruno never, Céu once.
const sessions = [
  { id: "sess_ana_laptop_8f3c2a", sellerId: ana.id, startedAt: "2026-11-24 08:12:03.456" },
  { id: "sess_ana_phone_1b7d90", sellerId: ana.id, startedAt: "2026-11-25 07:59:41.002" },
  { id: "sess_ceu_desktop_44e0aa", sellerId: ceu.id, startedAt: "2026-11-23 19:20:00.100" },
] as const;
const anaToken = "v1.k2026a.Zm9vYmFyYmF6cXV4.c2VjcmV0LXRva2VuLWNpcGhlcnRleHQ.dGFn";
const anaEvent = {
  rawBody: JSON.stringify({ domain: "orders", status: "approved", resource_id: "ORD-1001", code: "order_status_changed" }),
};

const countRows = async (client: pg.Client, table: string) =>
  (await client.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM "${table}"`)).rows[0]!.n;
// A table's whole content, in a stable order, as JSON (Connection without the dropped column).
const snapshot = async (client: pg.Client, table: string) =>
  (
    await client.query<{ row: Record<string, unknown> }>(
      `SELECT to_jsonb(t) - 'sessionEpoch' AS row FROM "${table}" t ORDER BY to_jsonb(t)::text`,
    )
  ).rows.map((r) => r.row);
const tableNames = async (client: pg.Client) =>
  (await client.query<{ name: string }>("SELECT tablename::text AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).rows.map(
    (r) => r.name,
  );
const applyMigration = async (client: pg.Client, name: string) =>
  // Plain SQL, several statements: sent as one simple query, as `prisma migrate deploy` does.
  client.query(readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8"));

let sql: pg.Client;
let keptTables: string[];
const countsBefore = new Map<string, number>();
const rowsBefore = new Map<string, Record<string, unknown>[]>();

async function insertDayBeforeData() {
  for (const shop of shops) {
    await sql.query(`INSERT INTO "Seller" ("id", "email", "name", "createdAt", "updatedAt") VALUES ($1, $2, $3, $4, $4)`, [
      shop.id,
      shop.email,
      shop.name,
      shop.createdAt,
    ]);
  }
  await sql.query(`UPDATE "Seller" SET "platformEmail" = 'ana.marketplace@example.com', "timeZone" = 'America/Manaus' WHERE "id" = $1`, [
    ana.id,
  ]);
  for (const session of sessions) {
    await sql.query(`INSERT INTO "SellerSession" ("id", "sellerId", "startedAt") VALUES ($1, $2, $3)`, [
      session.id,
      session.sellerId,
      session.startedAt,
    ]);
  }
  // Connections: Ana's with an explicit session epoch and a token in its grace period, Céu's with
  // the column's default.
  await sql.query(
    `INSERT INTO "Connection" ("id", "sellerId", "accessTokenEnc", "scopesRequested", "webhookKey", "sessionEpoch",
       "previousTokenEnc", "previousTokenUntil", "notificationsAtConnect")
     VALUES ('conn_ana', $1, $2, 'orders:read prices:write skus:write', 'wk_Y2hhdmUtZGEtYW5hLTAxMjM0NTY3', 'epoch-7a1f0c2e',
       'v1.k2026a.b2xkLXRva2Vu.b2xkLWNpcGhlcnRleHQ.dGFn', '2026-11-25 12:00:00.000', 'https://old.example.com/hooks')`,
    [ana.id, anaToken],
  );
  await sql.query(
    `INSERT INTO "Connection" ("id", "sellerId", "accessTokenEnc", "scopesRequested", "scopesMissing", "webhookKey")
     VALUES ('conn_ceu', $1, 'v1.k2026a.Y2V1.Y2V1LWNpcGhlcnRleHQ.dGFn', 'orders:read prices:write', 'prices:write', 'wk_Y2V1LWF6dWwtOTg3NjU0MzIx')`,
    [ceu.id],
  );
  // Webhook events: one processed, one waiting (with its queue row), one dead (parked queue row).
  const event = (id: string, shopId: string, rawBody: string, state: "done" | "pending" | "dead") =>
    sql.query(
      `INSERT INTO "WebhookEvent" ("id", "sellerId", "domain", "status", "resourceId", "rawBody", "bodyHash", "waitingHash",
         "headers", "signatureResult", "valid", "processingState", "attempts", "processedAt")
       VALUES ($1, $2, 'orders', 'approved', 'ORD-1001', $3::text, md5($3::text), CASE WHEN $4::text = 'pending' THEN md5($3::text) END,
         '{"content-type":"application/json","x-signature":"sha256=ab12"}', 'valid', true, $4::text,
         CASE WHEN $4::text = 'dead' THEN 5 ELSE 1 END, CASE WHEN $4::text = 'done' THEN TIMESTAMP '2026-11-25 17:42:10.317' END)`,
      [id, shopId, rawBody, state],
    );
  await event("evt_ana_done", ana.id, anaEvent.rawBody, "done");
  await event("evt_ana_waiting", ana.id, JSON.stringify({ domain: "orders", status: "shipped", resource_id: "ORD-1002" }), "pending");
  await event("evt_ceu_dead", ceu.id, JSON.stringify({ domain: "prices", resource_id: "PRC-9" }), "dead");
  await sql.query(`INSERT INTO "WebhookWork" ("eventId", "availableAt") VALUES ('evt_ana_waiting', '2026-11-25 18:00:00.000')`);
  await sql.query(`INSERT INTO "WebhookWork" ("eventId", "availableAt") VALUES ('evt_ceu_dead', '9999-12-31 00:00:00')`);
  await sql.query(
    `INSERT INTO "OrderMirror" ("sellerId", "orderId", "status", "createdAt", "updatedAt", "customerName", "total", "currency",
       "normalizer", "itemCount", "deliveries", "syncedAt")
     VALUES ($1, 'ORD-1001', 'approved', '2026-11-20 10:00:00', '2026-11-21 11:30:00', 'Maria Souza', 15990, 'BRL', 100, 2,
       '[{"id":"DLV-1","status":"pending"}]', '2026-11-25 17:00:00'),
            ($1, 'ORD-1002', 'shipped', '2026-11-22 09:00:00', '2026-11-24 16:45:00', 'João Lima', 4990, 'BRL', 100, 1,
       '[]', '2026-11-25 17:00:00')`,
    [ana.id],
  );
  await sql.query(
    `INSERT INTO "PriceMirror" ("sellerId", "priceId", "sku", "type", "value", "currency", "normalizer", "syncedAt")
     VALUES ($1, 'PRC-9', 'VASO-AZ-01', 'list', 8900, 'BRL', 100, '2026-11-25 17:00:00'),
            ($1, 'PRC-10', 'VASO-AZ-01', 'sale', 7900, 'BRL', 100, '2026-11-25 17:00:00')`,
    [ceu.id],
  );
  await sql.query(
    `INSERT INTO "Sku" ("id", "sellerId", "code", "title", "payload")
     VALUES ('sku_1', $1, 'CAM-P-AZUL', 'Camiseta azul P', '{"code":"CAM-P-AZUL","title":"Camiseta azul P"}'),
            ('sku_2', $2, 'BIKE-ARO29', 'Bicicleta aro 29', '{"code":"BIKE-ARO29","title":"Bicicleta aro 29"}')`,
    [ana.id, bruno.id],
  );
  await sql.query(
    `INSERT INTO "ProductName" ("sellerId", "sku", "name", "source", "namedAt")
     VALUES ($1, 'CAM-P-AZUL', 'Camiseta azul P', 'catalogue', '2026-11-25 16:30:00'),
            ($2, 'BIKE-ARO29', 'Bicicleta aro 29', 'catalogue', '2026-11-25 16:31:00')`,
    [ana.id, bruno.id],
  );
  await sql.query(
    `INSERT INTO "SellerSync" ("sellerId", "cursor", "lastReconciledAt", "recoveredTotal") VALUES ($1, '2026-11-25 17:00:00', '2026-11-25 17:05:00', 3)`,
    [ana.id],
  );
  await sql.query(`INSERT INTO "SellerSync" ("sellerId") VALUES ($1)`, [bruno.id]);
  await sql.query(
    `INSERT INTO "LiveMessage" ("sellerId", "payload") VALUES ($1, '{"type":"order","orderId":"ORD-1001"}'), ($2, '{"type":"price","priceId":"PRC-9"}')`,
    [ana.id, ceu.id],
  );
}

beforeAll(async () => {
  expect(before.length).toBeGreaterThan(0);
  expect(fromMigration[0]).toBe(MIGRATION);
  await createDatabase(url);
  sql = await connect(url);
  for (const name of before) await applyMigration(sql, name);
  await insertDayBeforeData();

  keptTables = (await tableNames(sql)).filter((table) => table !== "SellerSession");
  for (const table of keptTables) {
    countsBefore.set(table, await countRows(sql, table));
    rowsBefore.set(table, await snapshot(sql, table));
  }

  await applyMigration(sql, MIGRATION);
}, 60_000);

afterAll(async () => {
  await sql?.end();
  await dropDatabase(url);
});

describe(`migration ${MIGRATION}`, () => {
  it("makes each seller a shop owned by one person with the seller's name and marketplace email", async () => {
    const { rows: people } = await sql.query(
      `SELECT "id", "name", "marketplaceEmail", "lastShopId", to_char("createdAt", 'YYYY-MM-DD HH24:MI:SS.MS') AS "createdAt"
       FROM "Person" ORDER BY "id"`,
    );
    expect(people).toEqual(
      [...shops]
        .sort((a, b) => a.id.localeCompare(b.id))
        .map((shop) => ({
          id: `p_${shop.id}`,
          name: shop.name,
          marketplaceEmail: shop.email,
          lastShopId: shop.id,
          createdAt: shop.createdAt,
        })),
    );
    for (const seller of shops) {
      // Every member of the shop: the one owner, nobody else.
      const { rows: members } = await sql.query(`SELECT "personId", "role" FROM "Membership" WHERE "sellerId" = $1`, [seller.id]);
      expect(members).toEqual([{ personId: `p_${seller.id}`, role: "owner" }]);
      const { rows: owner } = await sql.query(
        `SELECT p."name", p."marketplaceEmail" FROM "Membership" m JOIN "Person" p ON p."id" = m."personId" WHERE m."sellerId" = $1`,
        [seller.id],
      );
      expect(owner).toEqual([{ name: seller.name, marketplaceEmail: seller.email }]);
    }
    expect(await countRows(sql, "Membership")).toBe(shops.length);
  });

  it("carries every signed-in session over to its seller's person, same id and start", async () => {
    const { rows } = await sql.query(
      `SELECT "id", "personId", to_char("startedAt", 'YYYY-MM-DD HH24:MI:SS.MS') AS "startedAt" FROM "PersonSession" ORDER BY "id"`,
    );
    expect(rows).toEqual(
      [...sessions]
        .sort((a, b) => a.id.localeCompare(b.id))
        .map((session) => ({ id: session.id, personId: `p_${session.sellerId}`, startedAt: session.startedAt })),
    );
  });

  it("keeps every row of every other table, unchanged", async () => {
    for (const table of keptTables) {
      expect({ table, count: await countRows(sql, table) }).toEqual({ table, count: countsBefore.get(table) });
      expect({ table, rows: await snapshot(sql, table) }).toEqual({ table, rows: rowsBefore.get(table) });
    }
    // And a few values read back directly, the ones a seller would miss first.
    const event = await sql.query(`SELECT "rawBody" FROM "WebhookEvent" WHERE "id" = 'evt_ana_done'`);
    expect(event.rows).toEqual([{ rawBody: anaEvent.rawBody }]);
    const connection = await sql.query(`SELECT "accessTokenEnc" FROM "Connection" WHERE "sellerId" = $1`, [ana.id]);
    expect(connection.rows).toEqual([{ accessTokenEnc: anaToken }]);
    const work = await sql.query(`SELECT "eventId" FROM "WebhookWork" ORDER BY 1`);
    expect(work.rows).toEqual([{ eventId: "evt_ana_waiting" }, { eventId: "evt_ceu_dead" }]);
    // Nothing vacuous: every table of the day before held rows.
    for (const table of keptTables) expect({ table, empty: countsBefore.get(table) === 0 }).toEqual({ table, empty: false });
  });

  it("drops SellerSession and Connection.sessionEpoch, and adds the people tables", async () => {
    const tables = await tableNames(sql);
    expect(tables).not.toContain("SellerSession");
    expect(tables).toEqual(
      expect.arrayContaining(["Person", "Membership", "PersonSession", "Passkey", "PasskeyChallenge", "Invitation", "AuditEntry"]),
    );
    const columns = await sql.query(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'Connection' AND column_name = 'sessionEpoch'`,
    );
    expect(columns.rows).toEqual([]);
    for (const table of ["Passkey", "PasskeyChallenge", "Invitation", "AuditEntry"]) expect(await countRows(sql, table)).toBe(0);
  });
});

describe("the migrations after it", () => {
  it("apply to the migrated data; 20261125220000_reconciliation_schedule gives every connected shop a slot within the default interval", async () => {
    const syncBefore = await snapshot(sql, "SellerSync");
    const refill = "20261126020000_refill_order_nets";
    const later = fromMigration.slice(1);
    for (const name of later.slice(0, later.indexOf(refill))) await applyMigration(sql, name);
    const { rows } = await sql.query<{ sellerId: string; inSeconds: number; cursor: Date | null }>(
      `SELECT c."sellerId", EXTRACT(EPOCH FROM s."nextRunAt" - now() AT TIME ZONE 'UTC')::float8 AS "inSeconds", s."cursor"
       FROM "Connection" c LEFT JOIN "SellerSync" s ON s."sellerId" = c."sellerId"`,
    );
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      expect(row.inSeconds).toBeGreaterThan(-5);
      expect(row.inSeconds).toBeLessThanOrEqual(300);
    }
    // What reconciliation had recorded stays: the rows that existed keep their cursor.
    const keptCursors = async () =>
      (
        await sql.query(`SELECT "sellerId", to_jsonb("cursor") AS "cursor" FROM "SellerSync" WHERE "sellerId" = ANY($1)`, [
          (syncBefore as { sellerId: string }[]).map((row) => row.sellerId),
        ])
      ).rows;
    expect(await keptCursors()).toEqual(
      expect.arrayContaining(
        (syncBefore as { sellerId: string; cursor: unknown }[]).map((row) => ({ sellerId: row.sellerId, cursor: row.cursor })),
      ),
    );

    // The refill sends each connected shop whose mirror has orders without a net through the
    // back-fill again (decision 0012), from the oldest such closed order; the others keep theirs.
    const withoutNet = await sql.query<{ sellerId: string; oldestClosed: string | null }>(
      `SELECT m."sellerId", to_jsonb(min(m."updatedAt") FILTER (WHERE m."status" NOT IN ('new', 'approved')))::text AS "oldestClosed"
       FROM "OrderMirror" m JOIN "Connection" c ON c."sellerId" = m."sellerId" JOIN "SellerSync" s ON s."sellerId" = m."sellerId"
       WHERE m."net" IS NULL GROUP BY m."sellerId"`,
    );
    expect(withoutNet.rows.length).toBeGreaterThan(0);
    const untouched = await sql.query(
      `SELECT "sellerId", to_jsonb("cursor") AS "cursor" FROM "SellerSync" WHERE NOT ("sellerId" = ANY($1))`,
      [withoutNet.rows.map((row) => row.sellerId)],
    );
    for (const name of later.slice(later.indexOf(refill))) await applyMigration(sql, name);
    const refilled = await sql.query<{ sellerId: string; backfillState: string; cursor: unknown; backfillFrom: string | null }>(
      `SELECT "sellerId", "backfillState", "cursor", to_jsonb("backfillFrom")::text AS "backfillFrom" FROM "SellerSync" WHERE "sellerId" = ANY($1)`,
      [withoutNet.rows.map((row) => row.sellerId)],
    );
    expect(refilled.rows).toEqual(
      expect.arrayContaining(
        withoutNet.rows.map((row) => ({ sellerId: row.sellerId, backfillState: "running", cursor: null, backfillFrom: row.oldestClosed })),
      ),
    );
    expect(
      (
        await sql.query(`SELECT "sellerId", to_jsonb("cursor") AS "cursor" FROM "SellerSync" WHERE "sellerId" = ANY($1)`, [
          untouched.rows.map((row) => row.sellerId),
        ])
      ).rows,
    ).toEqual(expect.arrayContaining(untouched.rows));
  });
});
