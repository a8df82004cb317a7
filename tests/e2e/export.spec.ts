import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import Papa from "papaparse";
import { signInAs, sandboxOrders, storedAccessToken } from "./support";

const WORDS = { en: { button: "Export CSV", done: "orders exported" }, "pt-BR": { button: "Exportar CSV", done: "pedidos exportados" } };

async function exportFrom(page: Page, language: keyof typeof WORDS = "en"): Promise<string> {
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: WORDS[language].button }).click();
  const file = await (await download).path();
  await expect(page.getByTestId("export-status")).toContainText(WORDS[language].done);
  return readFile(file, "utf8");
}

test("an export with a status filter holds exactly those orders, with the accountant's columns, in the browser's language", async ({
  page,
  browser,
  request,
}) => {
  await signInAs(page, "seller@example.com");
  const token = await storedAccessToken("seller@example.com");
  const finished = (await sandboxOrders(request, token, "status=finished")).length;
  // More than the platform's first page (50): the export pages on at the platform's max_limit.
  expect(finished).toBeGreaterThan(50);

  // English (this browser asks for en-US): `,`, points.
  await page.goto("/orders?status=finished");
  const english = await exportFrom(page);
  expect(english.startsWith("\uFEFF")).toBe(true);
  const [header, ...rows] = Papa.parse<string[]>(english.slice(1), { delimiter: ",", skipEmptyLines: true }).data;
  expect(header).toEqual([
    "order",
    "status",
    "created",
    "updated",
    "approved",
    "customer",
    "document",
    "items",
    "total",
    "freight",
    "discount",
    "commission",
    "freight you pay",
    "net (estimated)",
    "currency",
    "delivery status",
    "tracking",
    "ship by",
  ]);
  expect(rows).toHaveLength(finished);
  // Each row's net is its total less the commission and the freight the seller pays, to the cent.
  const cents = (value: string) => Math.round(Number(value) * 100);
  for (const row of rows) expect(cents(row[13]!), row[0]).toBe(cents(row[8]!) - cents(row[11]!) - cents(row[12]!));
  expect(new Set(rows.map((row) => row[1]))).toEqual(new Set(["finished"]));
  expect(rows.every((row) => /^[0-9a-f]{24}$/.test(row[0]!) && /^\d+\.\d{2}$/.test(row[8]!))).toBe(true);

  // A browser in Portuguese gets what Excel in Brazil opens as is: `;`, comma decimals.
  const portuguese = await browser.newContext({ locale: "pt-BR", storageState: await page.context().storageState() });
  try {
    const pt = await portuguese.newPage();
    await pt.goto("/orders?status=finished");
    const text = await exportFrom(pt, "pt-BR");
    const [ptHeader, ...ptRows] = Papa.parse<string[]>(text.slice(1), { delimiter: ";", skipEmptyLines: true }).data;
    expect(ptHeader![0]).toBe("pedido");
    expect(ptRows).toHaveLength(finished);
    expect(ptRows.every((row) => /^\d+,\d{2}$/.test(row[8]!))).toBe(true);
  } finally {
    await portuguese.close();
  }
});
