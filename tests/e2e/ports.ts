// The e2e run uses its own ports and database so it never collides with `npm run dev`.
export const E2E_APP_PORT = Number(process.env.E2E_APP_PORT ?? 3100);
export const E2E_SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 4110);
export const E2E_APP_URL = `http://localhost:${E2E_APP_PORT}`;
export const E2E_SANDBOX_URL = `http://localhost:${E2E_SANDBOX_PORT}`;
/** On the embedded server (or DATABASE_URL's server), recreated by each e2e run. */
export const E2E_DATABASE = "dashboard_e2e";
