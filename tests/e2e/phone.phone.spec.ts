import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { signInAs, expectNoSidewaysScroll } from "./support";

// The dashboard on a seller's phone (the "phone" project: 390 × 844, touch, pt-BR): the signed-out
// pages fit the screen, every section is reachable through the header's menu, and the morning's
// path works by touch: overview → late orders → an order → its shipping label.

const SECTIONS = [
  { name: "Pedidos", url: /\/orders$/ },
  { name: "Expedição", url: /\/shipping$/ },
  { name: "Preços", url: /\/prices\/products$/ },
  { name: "SKUs", url: /\/skus$/ },
  { name: "Notificações", url: /\/webhooks$/ },
  { name: "Equipe", url: /\/members$/ },
  { name: "Histórico de alterações", url: /\/audit$/ },
  { name: "Configurações", url: /\/settings$/ },
];

async function everySectionThroughTheMenu(page: Page) {
  const menu = page.getByRole("button", { name: "Menu" });
  for (const section of SECTIONS) {
    // Folded: the sections are not on the screen until the menu opens.
    await expect(page.getByRole("navigation", { name: "Principal" })).toBeHidden();
    await menu.tap();
    await expect(page.getByRole("button", { name: "Fechar menu" })).toHaveAttribute("aria-expanded", "true");
    await page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: section.name }).tap();
    await expect(page).toHaveURL(section.url);
    // Navigating closes it.
    await expect(menu).toHaveAttribute("aria-expanded", "false");
  }
}

test("signed out: the landing, sign-in and not-found pages fit the screen, and the menu holds the sections and the language", async ({
  page,
}) => {
  for (const path of ["/", "/connect", "/no-such-page", "/invite/no-such-invite-link-0000000000"]) {
    await page.goto(path);
    await expect(page.locator("main")).toBeVisible();
    await expectNoSidewaysScroll(page, path);
  }
  await page.goto("/");
  await page.getByRole("button", { name: "Menu" }).tap();
  await expect(page.getByRole("form", { name: "Idioma" }).getByRole("button", { name: "English" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Conectar conta" })).toBeVisible();
  // Escape folds it again, and the focus goes back to the button.
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Menu" })).toBeFocused();
});

// That every page fits the screen and its controls are touch-sized: accessibility.spec.ts, on this
// same phone, over every page of the app.
test("signed in: every section is reachable through the menu", async ({ page }) => {
  await signInAs(page, "seller@example.com");
  await page.goto("/");
  await everySectionThroughTheMenu(page);
});

test("the morning on a phone: overview → late orders → an order → its shipping label, by touch", async ({ page }) => {
  await signInAs(page, "seller@example.com");
  await page.goto("/");
  // "Late" opens the shipping list it counts.
  await page.getByTestId("count-late").tap();
  await expect(page).toHaveURL(/\/shipping\?due=late/);
  await expect(
    page
      .getByTestId("shipping-row")
      .first()
      .getByRole("link", { name: /^Pedido #\d+$/ }),
  ).toBeVisible();
  await page.goto("/orders?deadline=late");
  // Each order a card: its short reference, customer, total, status and ship-by with the "late" badge.
  const card = page.locator("tbody tr").first();
  await expect(card).toBeVisible();
  await expect(card.getByText("atrasado", { exact: true })).toBeVisible();
  await expect(card.getByRole("link", { name: /^Pedido #\d+$/ })).toHaveText(/^#\d+$/);
  // The quick filters stay in view; the others fold behind a button that counts them.
  await expect(page.getByRole("button", { name: "Em atraso" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("button", { name: /^Filtros/ })).toHaveAttribute("aria-expanded", "false");

  await card.getByRole("link").first().tap();
  await expect(page).toHaveURL(/\/orders\/[0-9a-f]{24}$/);
  // What the seller acts on is on the first screen: that it is late, and the label.
  await expect(page.getByTestId("order-late")).toBeInViewport();
  await expect(page.getByTestId("order-next-step")).toContainText("Atrasado: devia ter sido enviado até");
  const label = page.getByRole("link", { name: /etiqueta/i }).first();
  await expect(label).toBeInViewport();
  const box = await label.boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
  expect(await label.getAttribute("href")).toMatch(/^https?:\/\//);
});

test("the event log on a phone: each event is readable without sideways scrolling", async ({ page }) => {
  await signInAs(page, "seller@example.com");
  await page.goto("/webhooks/events");
  await expect(page.locator("main h1")).toBeVisible();
  await expectNoSidewaysScroll(page, "/webhooks/events");
});

test("installable: a web app manifest in the seller's language, with icons, and the theme colour of the page", async ({
  page,
  request,
}) => {
  await page.goto("/");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(href).toBeTruthy();
  const response = await request.get(href!, { headers: { "Accept-Language": "pt-BR" } });
  expect(response.status()).toBe(200);
  const manifest = (await response.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    theme_color: string;
    icons: { src: string; sizes: string; purpose?: string }[];
  };
  expect(manifest).toMatchObject({ name: "Painel do Vendedor", start_url: "/", display: "standalone" });
  expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
  expect(manifest.icons.some((icon) => icon.purpose === "maskable")).toBe(true);
  for (const icon of manifest.icons) {
    const image = await request.get(icon.src);
    expect(image.status(), icon.src).toBe(200);
    expect(image.headers()["content-type"]).toBe("image/png");
  }
  // The browser's chrome takes the same colour the manifest gives the installed app.
  expect(await page.locator('meta[name="theme-color"]').getAttribute("content")).toBe(manifest.theme_color);
});
