// The e2e run uses its own ports and database so it never collides with `npm run dev`.
export const E2E_APP_PORT = Number(process.env.E2E_APP_PORT ?? 3100);
export const E2E_SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 4110);
export const E2E_APP_URL = `http://localhost:${E2E_APP_PORT}`;
export const E2E_SANDBOX_URL = `http://localhost:${E2E_SANDBOX_PORT}`;
/** The run's own development mail server (scripts/dev-mail.ts): the dashboard's SMTP, and the API tests read e-mails from. */
export const E2E_MAIL_SMTP_PORT = Number(process.env.E2E_MAIL_SMTP_PORT ?? 4125);
export const E2E_MAIL_WEB_PORT = Number(process.env.E2E_MAIL_WEB_PORT ?? 4126);
export const E2E_MAIL_URL = `http://127.0.0.1:${E2E_MAIL_WEB_PORT}`;
/** The push-service stand-in tests/e2e/push.spec.ts listens on, on this machine. */
export const E2E_PUSH_PORT = Number(process.env.E2E_PUSH_PORT ?? 4127);
/** On the embedded server (or DATABASE_URL's server), recreated by each e2e run. */
export const E2E_DATABASE = "dashboard_e2e";

/**
 * The environment the e2e run's dashboard is built and served with (playwright.config.ts's web
 * server, and `npm test`'s build lane, which must build the same thing: scripts/build-once.ts).
 */
export const E2E_APP_ENV = {
  MARKETPLACE_AUTH_URL: E2E_SANDBOX_URL,
  MARKETPLACE_BASE_URL: E2E_SANDBOX_URL,
  PUBLIC_BASE_URL: E2E_APP_URL,
  AUTH_URL: E2E_APP_URL,
  E2E_APP_PORT: String(E2E_APP_PORT),
  NEXT_TELEMETRY_DISABLED: "1",
  // Reconciliation every few seconds, so a test sees lost notifications recovered (reconciliation.spec.ts).
  RECONCILE_INTERVAL_SECONDS: "5",
  // No metrics server: the app, and the second instance instances.spec.ts starts with this
  // process's environment, would contend with each other and with a `npm run dev` for one port.
  METRICS_PORT: "off",
  SMTP_URL: `smtp://127.0.0.1:${E2E_MAIL_SMTP_PORT}`,
  MAIL_FROM: "Painel do vendedor <avisos@painel.example.com>",
  // Every order is its own e-mail: specs create orders in one shop minutes apart, and a test
  // waiting for its order's e-mail must not wait out a burst another spec began (the burst rule is
  // tested in tests/integration/notifications.test.ts).
  NOTIFY_BURST_SECONDS: "0",
  // Push endpoints on this machine: the push-service stand-in of tests/e2e/push.spec.ts.
  PUSH_ALLOW_LOCAL_ENDPOINTS: "1",
  // POST /api/test/clock: tests/e2e/digest.clocks.spec.ts moves the digest's clock beside the sandbox's.
  TEST_CLOCK_CONTROL: "1",
};
