import { test } from "@playwright/test";
import { DESK, PHONE } from "./devices";
import { shopPathOf, signInAs } from "./support";

for (const locale of ["pt-BR", "en-US"]) {
  for (const [size, device] of [
    ["390", PHONE],
    ["1366", DESK],
  ] as const) {
    test.describe(`${locale} ${size}`, () => {
      test.use({ locale, ...device });
      test(`shots ${locale} ${size}`, async ({ page }) => {
        await signInAs(page, "seller@example.com");
        const shop = await shopPathOf(page);
        for (const [name, path] of [
          ["inbox", "/inbox"],
          ["prefs", "/inbox/settings"],
          ["account", "/account"],
          ["members", `${shop}/members`],
          ["settings", `${shop}/settings`],
          ["unsubscribe", "/unsubscribe?t=nope"],
        ] as const) {
          await page.goto(path);
          await page.waitForLoadState("networkidle");
          await page.screenshot({ path: `/tmp/shots/${name}-${locale}-${size}.png`, fullPage: true });
        }
      });
    });
  }
}
