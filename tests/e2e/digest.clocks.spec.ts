import { expect, test } from "@playwright/test";
import type { APIRequestContext } from "@playwright/test";
import { wallClock } from "../../lib/wall-clock";
import { calendarDayWords } from "../../lib/words/calendar-day";
import { E2E_MAIL_URL, E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { DESK, PHONE } from "./devices";
import { expectNoSidewaysScroll, signInAs, withE2eDatabase } from "./support";

// The morning digest (issue 41) arrives at the time the owner picks, on the shop's clock, with both
// clocks moved: the sandbox's (POST /_sandbox/clock) and the dashboard's clock of the seller's day
// (POST /api/test/clock, lib/schedule-clock.server.ts). Clocks only move forward, a day or more
// here, so this spec runs after every other (its Playwright project, "clocks", depends on theirs).

interface ReceivedEmail {
  subject: string;
  text: string;
  to: { address: string }[];
}

async function emailsTo(address: string): Promise<ReceivedEmail[]> {
  const emails = (await (await fetch(`${E2E_MAIL_URL}/api/email`)).json()) as ReceivedEmail[];
  return emails.filter((email) => email.to.some((each) => each.address === address));
}

/** Both clocks forward by the same amount; answers the dashboard's clock after. */
async function moveClocks(request: APIRequestContext, seconds: number): Promise<Date> {
  // The sandbox takes a move only (0 reads the dashboard's clock).
  if (seconds > 0)
    expect((await request.post(`${E2E_SANDBOX_URL}/_sandbox/clock`, { data: { advanceSeconds: seconds } })).status()).toBe(200);
  const moved = await request.post("/api/test/clock", { data: { advanceSeconds: seconds } });
  expect(moved.status()).toBe(200);
  return new Date(((await moved.json()) as { now: string }).now);
}

/** The shop's wall clock: its date (YYYY-MM-DD) and the seconds since its midnight. */
function shopClock(at: Date, timeZone: string) {
  const clock = wallClock(at, timeZone);
  return {
    day: `${clock.year}-${clock.month}-${clock.day}`,
    seconds: Number(clock.hour) * 3600 + Number(clock.minute) * 60 + Number(clock.second),
  };
}

const DIGEST_AT = 7 * 3600 + 30 * 60;

for (const { name, device } of [
  { name: "desk (1366 px)", device: DESK },
  { name: "phone (390 px)", device: PHONE },
]) {
  test.describe(`em português, ${name}`, () => {
    test.use({ locale: "pt-BR", ...device });

    test("the morning digest comes at the time the owner chose on the shop's clock, once, counting the day's orders", async ({
      page,
      request,
    }) => {
      // The owner picks 07:30 for Loja Demo.
      await signInAs(page, "seller@example.com");
      const { timeZone } = await withE2eDatabase(async (client) => {
        await client.query(`UPDATE "Person" SET "locale" = 'pt-BR' WHERE "marketplaceEmail" = 'seller@example.com'`);
        const { rows } = await client.query<{ timeZone: string }>(`SELECT "timeZone" FROM "Seller" WHERE "email" = 'seller@example.com'`);
        return rows[0]!;
      });

      await page.goto("/inbox/settings");
      const shop = page.getByTestId("shop-preferences").filter({ hasText: "Loja Demo" });
      await shop.getByLabel("Horário do resumo da manhã (no fuso da loja)").fill("07:30");
      await shop.getByRole("button", { name: "Salvar" }).click();
      await expect(shop.getByRole("status")).toHaveText("Preferências salvas.");
      if (device === PHONE) await expectNoSidewaysScroll(page, "alert preferences");

      // Both clocks to 07:29 on the shop's clock, a day or more ahead: the last 24 hours then hold
      // no order of this run, only those placed after the move.
      const now = await moveClocks(request, 0);
      let ahead = (DIGEST_AT - 60 - shopClock(now, timeZone).seconds + 86_400) % 86_400;
      while (ahead < 86_400 + 600) ahead += 86_400;
      const before = await moveClocks(request, ahead);
      const { day } = shopClock(before, timeZone);
      const subject = `Resumo da manhã · Loja Demo · ${calendarDayWords(day, "pt-BR")}`;

      const placed = await request.post(`${E2E_SANDBOX_URL}/_sandbox/orders`, { data: { seller: "seller@example.com", count: 2 } });
      expect(placed.status()).toBe(201);
      const orderIds = ((await placed.json()) as { orders: { id: string }[] }).orders.map((order) => order.id);
      await expect
        .poll(
          () =>
            withE2eDatabase(async (client) => {
              const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "OrderMirror" WHERE "orderId" = ANY($1)`, [
                orderIds,
              ]);
              return rows[0]!.n;
            }),
          { timeout: 20_000 },
        )
        .toBe(2);
      // A minute before the chosen time: nothing.
      await page.waitForTimeout(2_000);
      expect((await emailsTo("seller@example.com")).filter((email) => email.subject === subject)).toEqual([]);

      // 07:31: it comes, in Portuguese, with the day's figures.
      await moveClocks(request, 120);
      let digest: ReceivedEmail | undefined;
      await expect
        .poll(async () => (digest = (await emailsTo("seller@example.com")).find((email) => email.subject === subject)), { timeout: 20_000 })
        .toBeDefined();
      expect(digest!.text).toContain("2 pedidos novos nas últimas 24 horas");
      expect(digest!.text).toMatch(/(\d+ pedidos?|Nenhum pedido) para enviar hoje/);
      expect(digest!.text).toMatch(/(\d+ pedidos? atrasados?|Nenhum pedido atrasado)/);

      // Once a day: later that morning, no second one.
      await moveClocks(request, 600);
      await page.waitForTimeout(2_000);
      expect((await emailsTo("seller@example.com")).filter((email) => email.subject === subject)).toHaveLength(1);

      // The inbox has it too, and it opens the shop's overview.
      await page.goto("/inbox");
      const item = page.getByTestId("inbox-item").filter({ hasText: `Resumo da manhã de ${calendarDayWords(day, "pt-BR")}` });
      await expect(item).toHaveCount(1);
      await item.getByRole("button").click();
      await expect(page).toHaveURL(/\/s\/[^/]+$/);
    });
  });
}
