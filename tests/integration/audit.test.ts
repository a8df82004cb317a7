import { randomUUID } from "node:crypto";
import Papa from "papaparse";
import { createTranslator } from "next-intl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locale } from "@/i18n/config";
import type * as AuditRecord from "@/lib/audit/audit.server";
import type * as AuditLog from "@/features/audit/log.server";
import type * as Db from "@/lib/db.server";
import type { AuditWords } from "@/features/audit/describe";
import type { AuditFilters } from "@/features/audit/filters";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { useTestDatabase } from "../support/database";

// The shop's audit log against a real database: what is recorded is listed newest first, a page
// at a time without repeats or gaps, filtered by person, area and whole days in the shop's time
// zone; another shop's entries never show; the export writes safe CSV; pruning keeps the
// retention period.
let audit: typeof AuditRecord & typeof AuditLog;
let db: typeof Db.db;
let retentionDays: number;

const SAO_PAULO = "America/Sao_Paulo";
let shop: { id: string; timeZone: string };
let otherShop: { id: string; timeZone: string };
let maria: { id: string; name: string };
let joao: { id: string; name: string };

beforeAll(async () => {
  await useTestDatabase();
  // Written through the kernel (every feature records), read through the audit feature.
  audit = { ...(await import("@/lib/audit/audit.server")), ...(await import("@/features/audit/log.server")) };
  db = (await import("@/lib/db.server")).db;
  retentionDays = (await import("@/lib/env")).env.AUDIT_RETENTION_DAYS;
  const [one, two] = await Promise.all([
    db.shop.create({ data: { email: "loja@example.com", name: "Loja", timeZone: SAO_PAULO } }),
    db.shop.create({ data: { email: "outra@example.com", name: "Outra", timeZone: "Asia/Tokyo" } }),
  ]);
  shop = { id: one.id, timeZone: one.timeZone };
  otherShop = { id: two.id, timeZone: two.timeZone };
  maria = await db.person.create({ data: { name: "Maria" }, select: { id: true, name: true } });
  joao = await db.person.create({ data: { name: "João" }, select: { id: true, name: true } });
}, 60_000);

afterAll(async () => {
  await db?.$disconnect();
});

const brl = (value: number) => ({ type: "sell", value, currency: "BRL", normalizer: 100 });

/** Every entry of `filters`, following the "Older entries" cursor to the end. */
async function everyPage(target: { id: string; timeZone: string }, filters: AuditFilters = {}) {
  const pages: AuditLog.AuditRow[][] = [];
  let before: string | undefined;
  do {
    const page = await audit.listAuditEntries(target, filters, { before });
    pages.push(page.rows);
    before = page.nextBefore ?? undefined;
  } while (before);
  return pages;
}

async function setAt(subject: string, at: Date) {
  await db.auditEntry.updateMany({ where: { subject }, data: { at } });
}

const wordsIn = (locale: Locale) =>
  createTranslator({ locale, messages: catalogues[locale] as Messages, namespace: "audit" }) as unknown as AuditWords;

async function csvOf(target: { id: string; timeZone: string }, filters: AuditFilters, locale: Locale, limit?: number) {
  const bytes = await new Response(
    audit.auditCsvStream(target, filters, { locale, timeZone: target.timeZone, t: wordsIn(locale) }, limit),
  ).arrayBuffer();
  // As written, byte-order mark included (Response.text() would drop it).
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}

describe("the audit log", () => {
  it("lists what was recorded, newest first, a page at a time, never repeating or skipping an entry", async () => {
    // A bulk run's summary and its prices, recorded in one statement, as the bulk action does.
    const prices = Array.from({ length: 120 }, (_, index) => ({
      shopId: shop.id,
      person: index % 3 === 0 ? joao : maria,
      action: "price.set" as const,
      subject: `SKU-${index}`,
      before: brl(1000 + index),
      after: brl(1100 + index),
    }));
    await audit.recordAudit([
      ...prices,
      { shopId: shop.id, person: maria, action: "price.bulk", after: { source: "csv", sent: 118, failed: 2, skipped: 0 } },
    ]);
    await audit.recordAudit({
      shopId: otherShop.id,
      person: maria,
      action: "sku.create",
      subject: "OTHER-1",
      after: { title: "Não é desta loja" },
    });

    const pages = await everyPage(shop);
    expect(pages.map((page) => page.length)).toEqual([50, 50, 21]);
    const ids = pages.flat().map((row) => BigInt(row.id));
    expect(new Set(ids).size).toBe(121);
    expect(ids.every((id, index) => index === 0 || id < ids[index - 1]!)).toBe(true);
    expect(pages[0]![0]).toMatchObject({
      action: "price.bulk",
      kind: "price",
      personId: maria.id,
      personName: "Maria",
      subject: null,
      before: null,
    });
    expect(pages.flat().some((row) => row.subject === "OTHER-1")).toBe(false);

    // Entries recorded between two pages are newer than the cursor: the next page goes on where the last stopped.
    const first = await audit.listAuditEntries(shop, {});
    await audit.recordAudit({ shopId: shop.id, person: joao, action: "webhooks.rotate" });
    const second = await audit.listAuditEntries(shop, {}, { before: first.nextBefore! });
    expect(BigInt(second.rows[0]!.id)).toBeLessThan(BigInt(first.rows.at(-1)!.id));
    expect(second.rows[0]!.id).toBe(pages[1]![0]!.id);
  });

  it("filters by person and by area, and never shows another shop's entries", async () => {
    await audit.recordAudit([
      { shopId: shop.id, person: maria, action: "member.role", subject: "João", before: { role: "viewer" }, after: { role: "manager" } },
      { shopId: otherShop.id, person: joao, action: "member.join", subject: "João", after: { role: "viewer" } },
    ]);
    const joaos = (await everyPage(shop, { person: joao.id })).flat();
    expect(joaos.length).toBe(41); // 40 prices and the rotation
    expect(joaos.every((row) => row.personId === joao.id)).toBe(true);

    const members = (await everyPage(shop, { kind: "member" })).flat();
    expect(members.map((row) => row.action)).toEqual(["member.role"]);
    expect((await everyPage(otherShop, { kind: "member" })).flat().map((row) => row.action)).toEqual(["member.join"]);
    expect((await everyPage(shop, { kind: "member", person: joao.id })).flat()).toEqual([]);
    // Not even by asking for a person of the other shop's.
    expect((await everyPage(otherShop, { person: joao.id })).flat().map((row) => row.subject)).toEqual(["João"]);
  });

  it("reads from–to as whole days in the shop's time zone", async () => {
    await audit.recordAudit([
      { shopId: shop.id, person: maria, action: "sku.create", subject: "LATE-22", after: { title: "23:30 on the 22nd in São Paulo" } },
      { shopId: shop.id, person: maria, action: "sku.create", subject: "EARLY-23", after: { title: "00:00 on the 23rd in São Paulo" } },
      { shopId: shop.id, person: maria, action: "sku.create", subject: "EARLY-22", after: { title: "00:00 on the 22nd in São Paulo" } },
      { shopId: shop.id, person: maria, action: "sku.create", subject: "LATE-21", after: { title: "23:59:59 on the 21st in São Paulo" } },
    ]);
    // São Paulo is UTC−3: 23:30 there on the 22nd is 02:30 UTC on the 23rd.
    await setAt("LATE-22", new Date("2026-11-23T02:30:00Z"));
    await setAt("EARLY-23", new Date("2026-11-23T03:00:00Z"));
    await setAt("EARLY-22", new Date("2026-11-22T03:00:00Z"));
    await setAt("LATE-21", new Date("2026-11-22T02:59:59.999Z"));
    const subjects = async (filters: AuditFilters, target = shop) =>
      (await everyPage(target, { kind: "sku", ...filters }))
        .flat()
        .map((row) => row.subject)
        .sort();

    expect(await subjects({ from: "2026-11-22", to: "2026-11-22" })).toEqual(["EARLY-22", "LATE-22"]);
    expect(await subjects({ from: "2026-11-23", to: "2026-11-23" })).toEqual(["EARLY-23"]);
    expect(await subjects({ to: "2026-11-21" })).toEqual(["LATE-21"]);
    expect(await subjects({ from: "2026-11-22" })).toEqual(["EARLY-22", "EARLY-23", "LATE-22"]);

    // The same instants are other days in Tokyo (UTC+9): 23:30 on the 22nd in São Paulo is 11:30 on the 23rd there.
    const tokyo = { id: shop.id, timeZone: "Asia/Tokyo" };
    expect(await subjects({ from: "2026-11-23", to: "2026-11-23" }, tokyo)).toEqual(["EARLY-23", "LATE-22"]);
    expect(await subjects({ from: "2026-11-22", to: "2026-11-22" }, tokyo)).toEqual(["EARLY-22", "LATE-21"]);
  });

  it("names everyone who appears, by their current name, a person no longer there by the name recorded", async () => {
    const ana = await db.person.create({ data: { name: "Ana" }, select: { id: true, name: true } });
    await audit.recordAudit({ shopId: shop.id, person: ana, action: "connection.disconnect" });
    await db.person.update({ where: { id: maria.id }, data: { name: "Maria Silva" } });
    await db.person.delete({ where: { id: ana.id } });
    expect(await audit.listAuditPeople(shop.id)).toEqual([
      { id: ana.id, name: "Ana" },
      { id: joao.id, name: "João" },
      { id: maria.id, name: "Maria Silva" },
    ]);
    expect((await audit.listAuditPeople(otherShop.id)).map((person) => person.id).sort()).toEqual([joao.id, maria.id].sort());
  });

  it("exports CSV in the request's language, a subject typed as a formula written as text", async () => {
    await audit.recordAudit({
      shopId: shop.id,
      person: maria,
      action: "sku.create",
      subject: '=HYPERLINK("http://evil.example","x")',
      after: { title: "Caneca" },
    });
    await setAt('=HYPERLINK("http://evil.example","x")', new Date("2026-11-23T02:30:00Z"));
    const pt = await csvOf(shop, { kind: "sku", from: "2026-11-22", to: "2026-11-22" }, "pt-BR");
    expect(pt.startsWith("\uFEFF")).toBe(true);
    const rows = Papa.parse<string[]>(pt.slice(1), { delimiter: ";" }).data.filter((row) => row.length > 1);
    expect(rows[0]).toEqual([
      "Quando (UTC, ISO 8601)",
      "Quando (horário da loja)",
      "Pessoa",
      "Área",
      "Ação",
      "Objeto",
      "Antes",
      "Depois",
      "Descrição",
    ]);
    const formula = rows.find((row) => row[5]?.includes("HYPERLINK"));
    expect(formula).toEqual([
      "2026-11-23T02:30:00.000Z",
      "2026-11-22 23:30:00",
      "Maria",
      "SKUs",
      "SKU criado",
      `'=HYPERLINK("http://evil.example","x")`,
      "",
      '{"title":"Caneca"}',
      'SKU =HYPERLINK("http://evil.example","x") criado: “Caneca”',
    ]);
    // Only this shop's, only the filter's: the 22nd in São Paulo.
    expect(
      rows
        .slice(1)
        .map((row) => row[5])
        .sort(),
    ).toEqual([`'=HYPERLINK("http://evil.example","x")`, "EARLY-22", "LATE-22"]);

    const en = await csvOf(shop, { kind: "member" }, "en");
    const english = Papa.parse<string[]>(en.slice(1), { delimiter: "," }).data.filter((row) => row.length > 1);
    expect(english[1]!.slice(2)).toEqual([
      "Maria",
      "Team",
      "Role changed",
      "João",
      "Viewer",
      "Manager",
      "João's role changed: Viewer → Manager",
    ]);
  });

  it("cuts an export at its limit and says so in the file's last line", async () => {
    const csv = await csvOf(shop, { kind: "price" }, "en", 30);
    const lines = csv.trimEnd().split("\r\n");
    expect(lines.length).toBe(1 + 30 + 1);
    expect(lines.at(-1)).toMatch(/^Only the 30 most recent entries/);
    const whole = await csvOf(shop, { kind: "sku", from: "2026-11-23" }, "en", 1);
    expect(whole.trimEnd().split("\r\n").length).toBe(2); // the header and EARLY-23: nothing cut
  });

  it("prunes only entries older than the retention period, in batches", async () => {
    const now = new Date("2027-01-10T12:00:00Z");
    const day = 86_400_000;
    await audit.recordAudit([
      { shopId: shop.id, person: maria, action: "event.processAgain", subject: "OLD-1" },
      { shopId: shop.id, person: maria, action: "event.processAgain", subject: "OLD-2" },
      { shopId: otherShop.id, person: maria, action: "event.processAgain", subject: "OLD-3" },
      { shopId: shop.id, person: maria, action: "event.processAgain", subject: "KEPT" },
    ]);
    for (const subject of ["OLD-1", "OLD-2", "OLD-3"]) await setAt(subject, new Date(now.getTime() - retentionDays * day - 1_000));
    await setAt("KEPT", new Date(now.getTime() - retentionDays * day + 60_000));
    // Whatever else the earlier tests recorded (at the machine's clock or on set days) goes by the same rule.
    const cutoff = new Date(now.getTime() - retentionDays * day);
    const [total, older] = await Promise.all([db.auditEntry.count(), db.auditEntry.count({ where: { at: { lt: cutoff } } })]);
    expect(older).toBeGreaterThanOrEqual(3);

    expect(await (await import("@/lib/audit/audit-retention.server")).pruneAuditEntries(now, 2)).toBe(older);
    expect(await db.auditEntry.count()).toBe(total - older);
    expect(await db.auditEntry.count({ where: { at: { lt: cutoff } } })).toBe(0);
    expect((await db.auditEntry.findMany({ where: { kind: "event" }, select: { subject: true } })).map((row) => row.subject)).toEqual([
      "KEPT",
    ]);
    expect(await (await import("@/lib/audit/audit-retention.server")).pruneAuditEntries(now, 2)).toBe(0);
  });

  it("records a change of the shop's time zone with who made it, and nothing when the zone stays", async () => {
    const { setShopTimeZone } = await import("@/features/settings/shop-time-zone.server");
    await setShopTimeZone(otherShop.id, maria, "America/Manaus");
    await setShopTimeZone(otherShop.id, joao, "America/Manaus");
    const entries = await db.auditEntry.findMany({
      where: { shopId: otherShop.id, action: "settings.timeZone" },
      select: { personName: true, kind: true, before: true, after: true },
    });
    expect(entries).toEqual([
      { personName: "Maria", kind: "settings", before: { timeZone: "Asia/Tokyo" }, after: { timeZone: "America/Manaus" } },
    ]);
    expect((await db.shop.findUniqueOrThrow({ where: { id: otherShop.id } })).timeZone).toBe("America/Manaus");
  });

  it("adds a bulk run's batches only to the entry of the person who started it, whoever knows its id", async () => {
    const { recordBulkRun } = await import("@/features/prices/bulk/audit-bulk.server");
    const run = { id: randomUUID(), source: "csv" as const };
    const row = (line: number, sku: string) => ({ line, sku, type: "sell", value: 1000 + line, currency: "BRL", normalizer: 100 });
    await recordBulkRun(shop.id, maria, run, new Map(), [row(2, "RUN-1")], [{ line: 2, outcome: "applied" }]);
    await recordBulkRun(shop.id, maria, run, new Map(), [row(3, "RUN-2")], [{ line: 3, outcome: "failed" }]);
    // João sends a batch under Maria's run id (a forged call): it gets an entry of its own.
    await recordBulkRun(shop.id, joao, run, new Map(), [row(4, "RUN-3")], [{ line: 4, outcome: "applied" }]);
    const runs = await db.auditEntry.findMany({
      where: { shopId: shop.id, action: "price.bulk", after: { path: ["run"], equals: run.id } },
      orderBy: { id: "asc" },
      select: { personName: true, after: true },
    });
    expect(runs).toEqual([
      { personName: "Maria", after: { run: run.id, source: "csv", sent: 1, failed: 1, skipped: 0 } },
      { personName: "João", after: { run: run.id, source: "csv", sent: 1, failed: 0, skipped: 0 } },
    ]);
  });
});
