import { expect, test } from "@playwright/test";
import { E2E_SANDBOX_URL } from "../../scripts/lib/e2e-ports";
import { signInAs, fillValidSku, useThisDashboardForWebhooks } from "./support";

test.describe("SKUs", () => {
  test.afterEach(async ({ request }) => {
    await request.delete(`${E2E_SANDBOX_URL}/_sandbox/faults`);
  });

  test("a SKU created through the form is in the catalogue, confirmed by its webhook, and in the event log", async ({ page }) => {
    await signInAs(page, "seller@example.com");
    await useThisDashboardForWebhooks(page);

    await page.goto("/skus");
    await page.getByRole("link", { name: "New SKU" }).click();
    await expect(page.getByRole("heading", { name: "New SKU" })).toBeVisible();
    const code = `E2E-${Date.now()}`;
    await fillValidSku(page, code);
    await page.getByRole("button", { name: "Create SKU" }).click();

    const outcome = page.getByTestId("sku-outcome");
    await expect(outcome).toContainText("SKU imported");
    const id = (await page.getByTestId("sku-created-id").textContent())?.trim() ?? "";
    expect(id).toMatch(/^[0-9a-f]{24}$/);

    await outcome.getByRole("link", { name: "See it in the catalogue" }).click();
    const row = page.getByRole("row").filter({ hasText: code });
    // Named by its code; the platform's id is in its link (the SKU's page), not in the seller's words.
    await expect(row.getByRole("link").first()).toHaveAttribute("href", new RegExp(`/skus/${id}$`));
    await expect(row).toContainText("Camiseta E2E Algodão");
    // The portfolio.sku notification confirms it; the table refreshes without a reload.
    await expect(row).toContainText("Confirmed by webhook", { timeout: 20_000 });

    await page.goto(`/webhooks/events?domain=portfolio.sku&resource=${id}`);
    const event = page.getByRole("row").filter({ hasText: code });
    await expect(event).toContainText("SKU created");
    await expect(event).toContainText("processed");

    // SKUs are immutable: a new version starts from the stored one.
    await page.goto(`/skus/${id}`);
    await expect(page.getByTestId("sku-payload")).toContainText('"warranty_months": 3');
    await page.getByRole("link", { name: "New version from this SKU" }).click();
    await expect(page.getByRole("heading", { name: `New version of ${code}` })).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Code", exact: true })).toHaveValue(code);
    await expect(page.getByLabel("Title (pt_BR)")).toHaveValue("Camiseta E2E Algodão");
    await expect(page.getByLabel("Title (en_US)")).toHaveValue("E2E cotton T-shirt");
    await expect(page.locator("#sku-dimensions-0-length-value")).toHaveValue("30.5");
    await expect(page.locator("#sku-dimensions-0-weight-unit")).toHaveValue("g");
    await expect(page.getByLabel("Value of identifier 1")).toHaveValue("7891000315507");
    await expect(page.locator("#sku-attributes-variant-0-display-0-value")).toHaveValue("Médio");

    // Unchanged, the platform answers HTTP 200 with the existing SKU: nothing is created.
    await page.getByRole("button", { name: "Create SKU" }).click();
    await expect(outcome).toContainText("This SKU already exists: nothing was created");
    await expect(page.getByTestId("sku-created-id")).toHaveText(id);

    // Changed, it is a new SKU with the same code.
    await page.getByRole("textbox", { name: "Brand", exact: true }).fill("Malha Brasil Premium");
    await page.getByRole("button", { name: "Create SKU" }).click();
    await expect(outcome).toContainText("SKU imported");
    await expect(page.getByTestId("sku-created-id")).not.toHaveText(id);
  });

  test("an invalid SKU shows the field errors and keeps what was typed", async ({ page }) => {
    await signInAs(page, "seller@example.com");
    await page.goto("/skus/new");

    const longCode = "C".repeat(51);
    await page.getByRole("textbox", { name: "Code", exact: true }).fill(longCode);
    // Errors show as the seller types, once a field was touched.
    await expect(page.locator("#sku-code-error")).toHaveText("must be at most 50 characters");
    await page.getByRole("textbox", { name: "Brand", exact: true }).fill("Malha Brasil");
    await page.getByRole("button", { name: "Add an identifier" }).click();
    await page.getByLabel("Value of identifier 1").fill("7891000315508");
    await page.locator("#sku-dimensions-0-height-value").fill("12345678901");
    await page.getByRole("button", { name: "Create SKU" }).click();

    const code = page.getByRole("textbox", { name: "Code", exact: true });
    await expect(code).toHaveAttribute("aria-invalid", "true");
    await expect(code).toHaveAttribute("aria-describedby", /sku-code-error/);
    await expect(page.locator("#sku-titles-0-value-error")).toHaveText("is required");
    await expect(page.locator("#sku-identifiers-0-value-error")).toHaveText("the EAN check digit is wrong");
    await expect(page.locator("#sku-dimensions-0-height-value-error")).toContainText("at most 10 characters");
    await expect(page.locator("#sku-dimensions-0-width-value-error")).toContainText("1 to 10 characters");
    await expect(page.getByRole("alert").filter({ hasText: "need attention" })).toBeVisible();
    await expect(page.getByTestId("sku-outcome")).toHaveCount(0);

    // Nothing typed is lost.
    await expect(code).toHaveValue(longCode);
    await expect(page.getByRole("textbox", { name: "Brand", exact: true })).toHaveValue("Malha Brasil");
    await expect(page.getByLabel("Value of identifier 1")).toHaveValue("7891000315508");

    // Correcting a field clears its error at once.
    await code.fill("C".repeat(50));
    await expect(page.locator("#sku-code-error")).toHaveCount(0);
    await page.getByLabel("Value of identifier 1").fill("7891000315507");
    await expect(page.locator("#sku-identifiers-0-value-error")).toHaveCount(0);
  });

  test("with the import service down the seller reads statusCode -5 and can send again", async ({ page, request }) => {
    await signInAs(page, "seller@example.com");
    await page.goto("/skus/new");
    const code = `E2E-DOWN-${Date.now()}`;
    await fillValidSku(page, code);

    await request.post(`${E2E_SANDBOX_URL}/_sandbox/faults`, { data: { importDown: true } });
    await page.getByRole("button", { name: "Create SKU" }).click();
    const outcome = page.getByTestId("sku-outcome");
    await expect(outcome).toContainText("SKU import is down");
    await expect(outcome).toContainText("Try again later");
    await expect(outcome).toContainText("statusCode -5");
    await expect(page.getByRole("textbox", { name: "Code", exact: true })).toHaveValue(code);

    await request.delete(`${E2E_SANDBOX_URL}/_sandbox/faults`);
    await page.getByRole("button", { name: "Create SKU" }).click();
    await expect(outcome).toContainText("SKU imported");
  });

  test("removing a middle row keeps the other rows' values, errors and touched marks", async ({ page }) => {
    await signInAs(page, "seller@example.com");
    await page.goto("/skus/new");
    const add = page.getByRole("button", { name: "Add a variant attribute" });
    for (let i = 0; i < 4; i++) await add.click();
    const field = (row: number, part: "name" | "value") => page.locator(`#sku-attributes-variant-${row}-${part}`);
    const error = (row: number, part: "name" | "value") => page.locator(`#sku-attributes-variant-${row}-${part}-error`);
    await field(0, "name").fill("Cor");
    await field(0, "value").fill("Azul");
    await field(1, "name").fill("Material");
    await field(1, "value").fill("Algodão");
    await field(2, "name").fill("Tamanho");
    // Touched and left empty: its error shows. Row 3 is never touched: its errors do not.
    await field(2, "value").fill("M");
    await field(2, "value").fill("");
    await expect(error(2, "value")).toHaveText("is required");
    await expect(error(3, "name")).toHaveCount(0);

    const variants = page.getByRole("group", { name: "Variant attributes" });
    await variants.getByRole("button", { name: "Remove this attribute" }).nth(1).click();

    await expect(page.locator('[id^="sku-attributes-variant-"][id$="-name"]')).toHaveCount(3);
    await expect(field(0, "name")).toHaveValue("Cor");
    await expect(field(0, "value")).toHaveValue("Azul");
    await expect(error(0, "value")).toHaveCount(0);
    await expect(field(1, "name")).toHaveValue("Tamanho");
    await expect(error(1, "value")).toHaveText("is required");
    // The untouched row moved up without taking the removed row's touched marks.
    await expect(field(2, "name")).toHaveValue("");
    await expect(error(2, "name")).toHaveCount(0);
    await expect(error(2, "value")).toHaveCount(0);
  });

  test("the platform's -4 field errors land on the right fields after rows were removed", async ({ page, request }) => {
    await signInAs(page, "seller@example.com");
    await page.goto("/skus/new");
    await fillValidSku(page, `E2E-REJECT-${Date.now()}`);
    await page.getByRole("button", { name: "Add an identifier" }).click();
    await page.getByLabel("Value of identifier 2").fill("4006381333931");
    await page.getByRole("button", { name: "Add an identifier" }).click();
    await page.getByLabel("Value of identifier 3").fill("5901234123457");

    const rejectSkus = [
      { field: "identifiers[2].value", message: "this EAN belongs to another seller's product" },
      { field: "title.en_US", message: "the English title is too close to another product's" },
    ];
    await request.post(`${E2E_SANDBOX_URL}/_sandbox/faults`, { data: { rejectSkus } });
    await page.getByRole("button", { name: "Create SKU" }).click();
    const outcome = page.getByTestId("sku-outcome");
    await expect(outcome).toContainText("The SKU failed validation: nothing was imported");
    await expect(outcome).toContainText("statusCode -4");
    await expect(page.locator("#sku-identifiers-2-value-error")).toHaveText(rejectSkus[0]!.message);
    await expect(page.locator("#sku-titles-1-value-error")).toHaveText(rejectSkus[1]!.message);

    // The middle identifier goes: the platform's error follows its row up.
    await page.getByRole("group", { name: "Identifiers" }).getByRole("button", { name: "Remove this identifier" }).nth(1).click();
    await expect(page.getByLabel("Value of identifier 2")).toHaveValue("5901234123457");
    await expect(page.locator("#sku-identifiers-1-value-error")).toHaveText(rejectSkus[0]!.message);
    await expect(page.locator("#sku-identifiers-0-value-error")).toHaveCount(0);
    await expect(page.locator("#sku-identifiers-2-value")).toHaveCount(0);
    await expect(page.locator("#sku-titles-1-value-error")).toHaveText(rejectSkus[1]!.message);

    // Leaving a field does not clear the platform's error; editing it does.
    await page.getByLabel("Value of identifier 2").focus();
    await page.getByLabel("Value of identifier 2").blur();
    await expect(page.locator("#sku-identifiers-1-value-error")).toHaveText(rejectSkus[0]!.message);
    await page.getByLabel("Value of identifier 2").fill("4006381333931");
    await expect(page.locator("#sku-identifiers-1-value-error")).toHaveCount(0);
  });
});
