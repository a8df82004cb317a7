import { readFile } from "node:fs/promises";
import { PDFDocument } from "@pdfme/pdf-lib";
import { expect, test } from "@playwright/test";
import type { APIRequestContext, Page } from "@playwright/test";
import { DEFAULT_TIME_ZONE } from "../../i18n/config";
import type { Order } from "@marketplace/api/schemas/order";
import { shipByOf, startOfNextDay } from "../../lib/orders/ship-by";
import { pdfPageTexts } from "@marketplace/pdf-text";
import { E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { signInAs, expectNoSidewaysScroll, orderReferenceOf, shopPathOf, storedAccessToken } from "./support";

// The shipping morning (issue 29): "All to ship today" → a picking list whose totals are the sums
// of the sandbox's own orders; the labels PDF with one page per parcel naming its tracking number,
// in the picking list's order, a label made to fail (sandbox fault failLabels) reported while the
// rest still come; packing stages set for a selection and for one order, then filtered by; at a
// laptop's width and a phone's.

const OPEN_DELIVERIES = new Set(["created", "received"]);
const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

/** Every approved order of the seller whose token this is, whole, straight from the sandbox's API. */
async function approvedOrders(request: APIRequestContext, token: string): Promise<Order[]> {
  const orders: Order[] = [];
  for (let offset = 0; ; offset += 200) {
    const response = await request.get(`${E2E_SANDBOX_URL}/v1.0/marketplace/orders?status=approved&_limit=200&_offset=${offset}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status()).toBe(200);
    const { results } = (await response.json()) as { results: Order[] };
    orders.push(...results);
    if (results.length < 200) return orders;
  }
}

/** What "All to ship today" must select, computed here from the sandbox's orders: by the end of the shop's day, late ones included. */
function dueToday(orders: Order[], now = new Date()): Order[] {
  const end = startOfNextDay(now, DEFAULT_TIME_ZONE).getTime();
  return orders.filter((order) => {
    const shipBy = shipByOf(order);
    return shipBy !== null && Date.parse(shipBy) < end;
  });
}

/** Units per SKU over every parcel still to send. */
function unitsBySku(orders: Order[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const order of orders) {
    for (const delivery of order.deliveries.filter((candidate) => OPEN_DELIVERIES.has(candidate.status))) {
      for (const item of delivery.items) totals.set(item.info.sku, (totals.get(item.info.sku) ?? 0) + item.quantity);
    }
  }
  return totals;
}

/** The parcels in the picking list's order: orders by ship-by then id, each order's open deliveries as listed. */
function parcelsInOrder(orders: Order[]) {
  return [...orders]
    .sort((a, b) => Date.parse(shipByOf(a)!) - Date.parse(shipByOf(b)!) || (a.id < b.id ? -1 : 1))
    .flatMap((order) =>
      order.deliveries.filter((delivery) => OPEN_DELIVERIES.has(delivery.status)).map((delivery) => ({ orderId: order.id, delivery })),
    );
}

/** Signs in, and opens the shipping page once the dashboard's mirror holds every order to ship today. */
async function openShipping(page: Page, request: APIRequestContext) {
  await signInAs(page, "seller@example.com");
  const shop = await shopPathOf(page);
  const orders = dueToday(await approvedOrders(request, await storedAccessToken("seller@example.com")));
  expect(orders.length).toBeGreaterThan(2);
  // The mirror is filled in the background after connecting (back-fill, then reconciliation).
  await expect(async () => {
    await page.goto(`${shop}/shipping`);
    await page.getByRole("button", { name: "All to ship today" }).click();
    await expect(page.getByTestId("selection-count")).toHaveText(`All ${orders.length} orders of this filter are selected`, {
      timeout: 5_000,
    });
  }).toPass({ timeout: 30_000 });
  return { shop, orders };
}

for (const viewport of [LAPTOP, PHONE]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("all to ship today → a picking list whose totals are the sums of the selected orders", async ({ page, request }) => {
      const { orders } = await openShipping(page, request);
      await expect(page).toHaveURL(/\/shipping\?due=today$/);
      await expectNoSidewaysScroll(page);
      // On a phone the sections are folded behind the menu.
      if (viewport === PHONE) await page.getByRole("button", { name: "Menu" }).click();
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Shipping" })).toHaveAttribute(
        "aria-current",
        "page",
      );
      if (viewport === PHONE) await page.getByRole("button", { name: "Menu" }).click();

      await page.getByRole("link", { name: "Picking list" }).click();
      await expect(page).toHaveURL(/\/shipping\/picking\?all=1&due=today$/);
      await expect(page.getByRole("heading", { name: "Picking list", level: 1 })).toBeVisible();
      await expectNoSidewaysScroll(page);

      const expected = unitsBySku(orders);
      const rows = page.getByTestId("picking-sku");
      await expect(rows).toHaveCount(expected.size);
      const shown = new Map<string, number>();
      for (const row of await rows.all()) shown.set((await row.getAttribute("data-sku"))!, Number(await row.getAttribute("data-quantity")));
      expect(shown).toEqual(expected);
      const units = [...expected.values()].reduce((a, b) => a + b, 0);
      const parcels = parcelsInOrder(orders);
      await expect(page.getByTestId("picking-summary")).toContainText(
        `${orders.length} orders · ${parcels.length} parcels · ${units} units`,
      );
      // Then per order, in ship-by order, each parcel named by its tracking number.
      await expect(page.getByTestId("picking-parcel")).toHaveCount(parcels.length);
      expect(
        await page.getByTestId("picking-parcel").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-tracking"))),
      ).toEqual(parcels.map((parcel) => parcel.delivery.shipping.tracking.number));

      // The same list as a PDF.
      const pdfResponse = await page.request.get(
        await page
          .getByRole("link", { name: "Download PDF" })
          .getAttribute("href")
          .then((href) => href!),
      );
      expect(pdfResponse.headers()["content-type"]).toBe("application/pdf");
      const text = (await pdfPageTexts(await pdfResponse.body())).join("\n");
      for (const sku of expected.keys()) expect(text).toContain(sku);
    });
  });
}

test.describe("labels and stages", () => {
  test.use({ viewport: LAPTOP });

  test("the labels PDF has one page per parcel naming its tracking number; a failing label is reported and the rest still come", async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const { orders } = await openShipping(page, request);
    const parcels = parcelsInOrder(orders);
    const failing = parcels[1]!;
    // Each label a little slow, as a real label host is: the progress is there to be seen.
    await request.post(`${E2E_SANDBOX_URL}/_sandbox/faults`, { data: { failLabels: [failing.delivery.id], labelLatencyMs: 150 } });
    try {
      await page.getByRole("button", { name: "Labels PDF" }).click();
      const run = page.getByTestId("labels-run");
      await expect(run.getByTestId("labels-progress")).toHaveText(new RegExp(`^\\d+ of ${parcels.length} labels$`));
      const download = run.getByRole("link", { name: "Download the labels PDF" });
      await expect(download).toBeVisible({ timeout: 60_000 });
      await expect(run).toContainText(`The PDF is ready: ${parcels.length - 1} pages`);

      // The failure, in words: which order (its short reference) and parcel (its tracking number), and why.
      const failed = run.getByTestId("failed-label");
      await expect(failed).toHaveCount(1);
      await expect(failed).toContainText(await orderReferenceOf(failing.orderId));
      await expect(failed).toContainText(failing.delivery.shipping.tracking.number);
      await expect(failed).toContainText("The label's server answered with an error (HTTP 503).");

      const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
      expect(file.suggestedFilename()).toMatch(/^labels-\d{4}-\d{2}-\d{2}\.pdf$/);
      const bytes = await readFile((await file.path())!);
      expect((await PDFDocument.load(bytes)).getPageCount()).toBe(parcels.length - 1);
      const texts = await pdfPageTexts(bytes);
      const expected = parcels.filter((parcel) => parcel !== failing).map((parcel) => parcel.delivery.shipping.tracking.number);
      expect(texts.map((text, index) => text.includes(expected[index]!))).toEqual(expected.map(() => true));

      // Another selection: the panel no longer speaks of the last run's PDF, and offers one for it.
      await page.getByRole("button", { name: "Clear the selection" }).click();
      const rows = page.getByTestId("shipping-row");
      for (const index of [0, 1])
        await rows
          .nth(index)
          .getByRole("checkbox", { name: /^Select order #\d+$/ })
          .check();
      await expect(page.getByTestId("selection-count")).toHaveText("2 orders selected");
      await expect(page.getByText(/The PDF is ready/)).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Download the labels PDF" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Labels PDF" })).toBeEnabled();
    } finally {
      await request.delete(`${E2E_SANDBOX_URL}/_sandbox/faults`);
    }
  });

  test("packing stages: set for a selection and for one order, shown as a column, filtered by, and in the audit log", async ({
    page,
    request,
  }) => {
    const { shop } = await openShipping(page, request);
    await page.getByRole("button", { name: "Clear the selection" }).click();
    const rows = page.getByTestId("shipping-row");
    const chosen = [(await rows.nth(0).getAttribute("data-order"))!, (await rows.nth(1).getAttribute("data-order"))!];
    const row = (id: string) => page.locator(`[data-testid="shipping-row"][data-order="${id}"]`);
    // Each row names its order by the short reference, as the seller reads it.
    for (const id of chosen)
      await row(id)
        .getByRole("checkbox", { name: /^Select order #\d+$/ })
        .check();
    await expect(page.getByTestId("selection-count")).toHaveText("2 orders selected");

    await page.getByLabel("Mark as").selectOption({ label: "Packed" });
    await page.getByRole("button", { name: "Mark", exact: true }).click();
    await expect(page.getByTestId("stage-message")).toHaveText("2 orders marked packed.");
    for (const id of chosen) await expect(row(id).getByRole("combobox", { name: /^Packing stage of order #\d+$/ })).toHaveValue("packed");

    // One order on its own, from its row.
    const third = (await rows.nth(2).getAttribute("data-order"))!;
    const thirdReference = (await row(third).getByRole("link").textContent())!.trim();
    expect(thirdReference).toMatch(/^#\d+$/);
    await page.getByRole("combobox", { name: `Packing stage of order ${thirdReference}` }).selectOption("picked");
    await expect(page.getByTestId("stage-message")).toHaveText("1 order marked picked.");

    // The stage filter (in the URL, like every filter).
    await page.getByRole("checkbox", { name: "Packed", exact: true }).check();
    await expect(page).toHaveURL(/stage=packed/);
    await expect
      .poll(async () =>
        (await rows.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-stage")))).every((stage) => stage === "packed"),
      )
      .toBe(true);
    const packed = await rows.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-order")));
    expect(packed).toEqual(expect.arrayContaining(chosen));
    expect(packed).not.toContain(third);
    await page.reload();
    await expect(page.getByRole("checkbox", { name: "Packed", exact: true })).toBeChecked();

    await page.goto(`${shop}/audit`);
    await expect(page.getByTestId("audit-entry").filter({ hasText: "2 orders marked packed" }).first()).toBeVisible();
    await expect(
      page
        .getByTestId("audit-entry")
        .filter({ hasText: `Order ${thirdReference} marked picked` })
        .first(),
    ).toBeVisible();
  });
});
