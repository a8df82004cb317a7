import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH, FULL_CHROMIUM_PATH } from "./scripts/lib/chromium";
import { PHONE } from "./tests/e2e/devices";
import { E2E_APP_ENV, E2E_APP_URL, E2E_MAIL_SMTP_PORT, E2E_MAIL_WEB_PORT, E2E_SANDBOX_PORT } from "./scripts/lib/e2e-ports";

// No metrics server in the e2e run: the app, and the second instance instances.spec.ts starts
// with this process's environment, would contend with each other and with a `npm run dev` on
// the machine for one port.
process.env.METRICS_PORT = "off";

export default defineConfig({
  testDir: "./tests/e2e",
  fullyParallel: false,
  // Two cores: one worker keeps the app, the sandbox and the browser from starving each other.
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: E2E_APP_URL,
    // The tests speak English unless they ask for Portuguese (test.use({ locale: "pt-BR" })): the
    // dashboard follows the browser's Accept-Language.
    locale: "en-US",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      testIgnore: [/\.phone\.spec\.ts$/, /push\.spec\.ts$/, /\.clocks\.spec\.ts$/],
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
      },
    },
    {
      // Push (tests/e2e/push.spec.ts): the full browser, whose service workers can show notifications.
      name: "notifications",
      testMatch: /push\.spec\.ts$/,
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: { executablePath: FULL_CHROMIUM_PATH, args: CHROMIUM_ARGS },
      },
    },
    {
      // A seller's phone (an iPhone 12–15's screen), touch only, in Portuguese: *.phone.spec.ts.
      name: "phone",
      testMatch: /\.phone\.spec\.ts$/,
      use: {
        ...PHONE,
        locale: "pt-BR",
        launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
      },
    },
    {
      // Specs that move the sandbox's and the dashboard's clocks forward (*.clocks.spec.ts): after
      // every other, whose orders and deadlines are on today's clock. Alone: --project=clocks --no-deps.
      name: "clocks",
      testMatch: /\.clocks\.spec\.ts$/,
      dependencies: ["chromium", "notifications", "phone"],
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
      },
    },
  ],
  webServer: [
    {
      name: "sandbox",
      command: "npx tsx sandbox/main.ts",
      port: E2E_SANDBOX_PORT,
      env: {
        SANDBOX_PORT: String(E2E_SANDBOX_PORT),
        // The demo shop is seeded up to the run's start (sandbox/seed/rhythm.ts), pinned so that a
        // test's reset (connect.spec.ts) seeds the very same orders again: the dashboard's order
        // mirror, which never forgets an order, keeps matching the sandbox.
        SANDBOX_SEED_BASE: new Date(Math.floor(Date.now() / 1000) * 1000).toISOString(),
        SANDBOX_REDIRECT_URIS: `${E2E_APP_URL}/api/auth/callback/marketplace`,
      },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      name: "mail",
      command: "npx tsx scripts/dev-mail.ts --fresh",
      port: E2E_MAIL_WEB_PORT,
      env: { MAILDEV_SMTP_PORT: String(E2E_MAIL_SMTP_PORT), MAILDEV_WEB_PORT: String(E2E_MAIL_WEB_PORT) },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      name: "app",
      // A production build: what users get, and pages that do not compile on first visit.
      command: "npx tsx scripts/e2e-app-server.ts",
      url: E2E_APP_URL,
      env: E2E_APP_ENV,
      reuseExistingServer: false,
      timeout: 400_000,
      stdout: "pipe",
    },
  ],
});
