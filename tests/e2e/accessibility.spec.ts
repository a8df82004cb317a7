import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import { DESK, PHONE } from "./devices";
import { expectNoSidewaysScroll, signInAs, smallTouchTargets } from "./support";
import { seriousViolations, visitsForEveryPage, VISITS_LOGIN } from "./pages";
import type { PageVisit } from "./pages";

// Every page, scanned with axe with every rule it ships switched on (best practices and the
// experimental ones such as label-content-name-mismatch included): no serious or critical
// violation. Every page at a desk and on a phone in Portuguese, the sellers' language; in English,
// the pages whose words change the layout (the header, tables, forms: `wordsChangeLayout`), since
// most pages' markup is the same in both. On the phone (the "phone" project's: 390 px, touch) each
// page also fits the screen (nothing scrolls sideways, WCAG 1.4.10) and its controls are touch
// targets of 44 px (2.5.5). No page shows the platform's ids or codes (JARGON). Pages that show data are checked once it is there, so the rows are part
// of what is checked. The pages come from the app's routes (tests/e2e/pages.ts): a page added
// later is checked without anyone adding it here.

const { signedOut, signedIn } = visitsForEveryPage();

const SIZES = [
  { name: "desk", device: DESK, phone: false },
  { name: "phone", device: PHONE, phone: true },
];
const LANGUAGES = [
  { locale: "pt-BR", visits: (visits: PageVisit[]) => visits },
  { locale: "en-US", visits: (visits: PageVisit[]) => visits.filter((visit) => visit.wordsChangeLayout) },
];

/**
 * What a seller's page never shows (issue 40): the platform's 24-character ids, its scope codes,
 * IANA zone names. The technical detail kept one click away (an order's platform id, an event's
 * raw body) is marked `data-technical` and left out.
 */
const JARGON: [string, RegExp][] = [
  ["a platform id", /\b[0-9a-f]{24}\b/],
  ["a scope code", /\b(basic_user_info|portfolio:(read|write)|order-order:read)\b/],
  ["an IANA zone name", /\b(America|Europe|Africa|Asia|Atlantic|Pacific|Etc)\/[A-Z][A-Za-z_]+/],
];

async function sellerText(page: Page): Promise<string> {
  return page.locator("main").evaluate((main) => {
    const copy = main.cloneNode(true) as HTMLElement;
    for (const technical of copy.querySelectorAll("[data-technical]")) technical.remove();
    return copy.textContent ?? "";
  });
}

async function check(page: Page, visits: PageVisit[], phone: boolean) {
  for (const visit of visits) {
    await visit.open(page);
    expect.soft(await seriousViolations(page), visit.name).toEqual([]);
    const text = await sellerText(page);
    for (const [what, pattern] of JARGON) expect.soft(text.match(pattern)?.[0], `${visit.name} shows ${what}`).toBeUndefined();
    if (phone) {
      await expectNoSidewaysScroll(page, visit.name, expect.soft);
      expect.soft(await smallTouchTargets(page), `${visit.name}: controls under 44 px`).toEqual([]);
    }
  }
}

for (const { locale, visits } of LANGUAGES) {
  for (const { name, device, phone } of SIZES) {
    test.describe(`in ${locale}, ${name}`, () => {
      test.use({ locale, ...device });

      test(`signed out: the pages have no serious or critical axe violations${phone ? ", fit the screen and are tapped easily" : ""}`, async ({
        page,
      }) => {
        await check(page, visits(signedOut), phone);
      });

      test(`signed in: the dashboard's pages have no serious or critical axe violations${phone ? ", fit the screen and are tapped easily" : ""}`, async ({
        page,
      }) => {
        test.setTimeout(180_000);
        await signInAs(page, VISITS_LOGIN);
        await check(page, visits(signedIn), phone);
      });
    });
  }
}
