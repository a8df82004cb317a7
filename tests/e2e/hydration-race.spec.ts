import { expect, test } from "@playwright/test";
import type { Page, Route } from "@playwright/test";
import { signInAs, orderIdsListed } from "./support";

// A table control used before the page's scripts have run (a seller on a slow phone taps what
// the server's HTML already shows) does what it does afterwards: the URL and the table follow.
// The scripts are held back until the control was used, then let through.

const rows = (page: Page) => page.locator("tbody tr");
const firstOrderId = async (page: Page) => (await orderIdsListed(page))[0];

/** Opens `url` with its scripts held back, runs `act` on the server's HTML, then lets them load. */
async function actBeforeHydration(page: Page, url: string, act: () => Promise<void>) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const scripts = (address: URL) => address.pathname.startsWith("/_next/static/") && address.pathname.endsWith(".js");
  const hold = async (route: Route) => {
    await released;
    // A request the page no longer waits for (it navigated) cannot be continued.
    await route.continue().catch(() => undefined);
  };
  await page.route(scripts, hold);
  try {
    // Not "load": the held scripts would keep it from firing.
    await page.goto(url, { waitUntil: "domcontentloaded" });
    await act();
    expect(await page.locator("html[data-hydrated]").count(), "the control was used before the page hydrated").toBe(0);
  } finally {
    release();
  }
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.unroute(scripts, hold);
}

/** Every listed order is late, and there is at least one (the mirror fills in the background after connecting). */
async function expectOnlyLateOrders(page: Page) {
  await expect
    .poll(
      async () => {
        const shipBy = await rows(page).locator("td:nth-child(7)").allTextContents();
        return shipBy.length > 0 && shipBy.every((cell) => cell.includes("late"));
      },
      { timeout: 30_000 },
    )
    .toBe(true);
}

test.describe("at 1366 px", () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  test("a quick filter, the pager, the page size, a sort and the filter form used before hydration reach the URL and the table", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, "seller@example.com");

    let before: string | undefined;
    await actBeforeHydration(page, "/orders", async () => {
      await expect(rows(page)).toHaveCount(25);
      before = await firstOrderId(page);
      await page.getByRole("button", { name: "Next" }).click();
    });
    await expect(page).toHaveURL(/[?&]page=2(&|$)/);
    await expect(page.getByText(/^Page 2/)).toBeVisible();
    await expect.poll(() => firstOrderId(page)).not.toBe(before);

    await actBeforeHydration(page, "/orders?page=3", async () => {
      await page.getByRole("combobox", { name: "Rows per page" }).selectOption("50");
    });
    await expect(page).toHaveURL(/[?&]size=50(&|$)/);
    await expect(page).not.toHaveURL(/page=3/);
    await expect(rows(page)).toHaveCount(50);
    await expect(page.getByText(/^Page 1/)).toBeVisible();

    await actBeforeHydration(page, "/orders", async () => {
      await page.getByRole("button", { name: /^Created/ }).click();
    });
    await expect(page).toHaveURL(/sort=created_at%3Aasc/);
    await expect
      .poll(async () => {
        const times = await rows(page)
          .locator("td:nth-child(8) time")
          .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("datetime") ?? ""));
        return times.length > 1 && times.every((time, i) => i === 0 || times[i - 1]! <= time);
      })
      .toBe(true);

    // A group of choices applies as it is ticked.
    await actBeforeHydration(page, "/orders", async () => {
      await page.getByRole("checkbox", { name: "cancelled" }).check();
    });
    await expect(page).toHaveURL(/status=cancelled/);
    await expect(page.getByRole("checkbox", { name: "cancelled" })).toBeChecked();
    await expect.poll(async () => new Set(await rows(page).locator("td:nth-child(2)").allTextContents())).toEqual(new Set(["cancelled"]));

    // Typed, then applied by the form's button.
    let name = "";
    await actBeforeHydration(page, "/orders", async () => {
      name = (await rows(page).first().locator("td:nth-child(3)").textContent())!.split(" ")[0]!;
      await page.getByLabel("Customer name").fill(name);
      await page.getByRole("button", { name: "Apply filters" }).click();
    });
    await expect(page).toHaveURL(new RegExp(`customer=${encodeURIComponent(name)}`));
    await expect(page.getByLabel("Customer name")).toHaveValue(name);
    await expect
      .poll(async () => {
        const names = await rows(page).locator("td:nth-child(3)").allTextContents();
        return names.length > 0 && names.every((each) => each.toLowerCase().includes(name.toLowerCase()));
      })
      .toBe(true);

    await actBeforeHydration(page, "/orders", async () => {
      await page.getByRole("button", { name: "Late", exact: true }).click();
    });
    await expect(page).toHaveURL(/deadline=late/);
    await expect(page.getByRole("button", { name: "Late", exact: true })).toHaveAttribute("aria-pressed", "true");
    await expectOnlyLateOrders(page);

    // Back: the router knows the entries the early controls pushed.
    await page.goBack();
    await expect(page).not.toHaveURL(/deadline=late/);
    await expect(page.getByRole("button", { name: "Late", exact: true })).toHaveAttribute("aria-pressed", "false");
  });
});

test.describe("at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("a quick filter and the pager tapped before hydration reach the URL and the cards", async ({ page }) => {
    test.setTimeout(90_000);
    await signInAs(page, "seller@example.com");

    let before: string | undefined;
    await actBeforeHydration(page, "/orders", async () => {
      await expect(rows(page)).toHaveCount(25);
      before = await firstOrderId(page);
      await page.getByRole("button", { name: "Next" }).tap();
    });
    await expect(page).toHaveURL(/[?&]page=2(&|$)/);
    await expect(page.getByText(/^Page 2/)).toBeVisible();
    await expect.poll(() => firstOrderId(page)).not.toBe(before);

    await actBeforeHydration(page, "/orders", async () => {
      await page.getByRole("button", { name: "Late", exact: true }).tap();
    });
    await expect(page).toHaveURL(/deadline=late/);
    await expect(page.getByRole("button", { name: "Late", exact: true })).toHaveAttribute("aria-pressed", "true");
    await expectOnlyLateOrders(page);
  });
});

// The race CI met: the control has hydrated and answers, but Next's router follows
// history.pushState only from its own mount effect, which runs in a later task. The click is sent
// in that gap, right after the hydration commit (where the router first writes its history state).
test("a quick filter clicked after it hydrated but before the router is up reaches the URL and the table", async ({ page }) => {
  await signInAs(page, "seller@example.com");
  await page.addInitScript(() => {
    const race = ((window as unknown as { race: { routerUp: boolean | null } }).race = { routerUp: null as boolean | null });
    const replace = History.prototype.replaceState;
    History.prototype.replaceState = function (this: History, ...args: Parameters<History["replaceState"]>) {
      replace.apply(this, args);
      if (race.routerUp === null && (args[0] as { __NA?: boolean } | null)?.__NA) {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          // The router wraps pushState on the history object itself once it follows it.
          race.routerUp = Object.hasOwn(history, "pushState");
          [...document.querySelectorAll("button")].find((button) => button.textContent === "Late")?.click();
        };
        channel.port2.postMessage(null);
        race.routerUp = false;
      }
    };
  });
  await page.goto("/orders");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  expect(
    await page.evaluate(() => (window as unknown as { race: { routerUp: boolean | null } }).race.routerUp),
    "clicked before the router followed history",
  ).toBe(false);
  await expect(page).toHaveURL(/deadline=late/);
  await expect(page.getByRole("button", { name: "Late", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expectOnlyLateOrders(page);
});
