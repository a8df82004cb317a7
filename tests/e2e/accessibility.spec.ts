import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { signInAs } from "./support";
import { seriousViolations, visitsForEveryPage, VISITS_LOGIN } from "./pages";
import type { PageVisit } from "./pages";

// Every page, scanned with axe with every rule it ships switched on (best practices and the
// experimental ones such as label-content-name-mismatch included): no serious or critical
// violation. Every page at a desk and on a phone in Portuguese, the sellers' language; in English,
// the pages whose words change the layout (the header, tables, forms: `wordsChangeLayout`), since
// most pages' markup is the same in both. Pages that show data are scanned once it is there, so
// the rows are part of what is checked. The pages come from the app's routes (tests/e2e/pages.ts):
// a page added later is scanned without anyone adding it here.

const { signedOut, signedIn } = visitsForEveryPage();

const SIZES = [
  { name: "desk", viewport: { width: 1366, height: 900 }, hasTouch: false },
  { name: "phone", viewport: { width: 390, height: 844 }, hasTouch: true },
];
const LANGUAGES = [
  { locale: "pt-BR", visits: (visits: PageVisit[]) => visits },
  { locale: "en-US", visits: (visits: PageVisit[]) => visits.filter((visit) => visit.wordsChangeLayout) },
];

async function scan(page: Page, visits: PageVisit[]) {
  for (const visit of visits) {
    await visit.open(page);
    expect.soft(await seriousViolations(page), visit.name).toEqual([]);
  }
}

for (const { locale, visits } of LANGUAGES) {
  for (const size of SIZES) {
    test.describe(`in ${locale}, ${size.name}`, () => {
      test.use({ locale, viewport: size.viewport, hasTouch: size.hasTouch });

      test("signed out: the pages have no serious or critical axe violations", async ({ page }) => {
        await scan(page, visits(signedOut));
      });

      test("signed in: the dashboard's pages have no serious or critical axe violations", async ({ page }) => {
        test.setTimeout(180_000);
        await signInAs(page, VISITS_LOGIN);
        await scan(page, visits(signedIn));
      });
    });
  }
}
