// Placeholder sandbox server; replaced by the full platform implementation (issue 3).
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const port = Number(process.env.SANDBOX_PORT ?? 4010);
const app = new Hono();
app.get("/_sandbox/health", (c) => c.json({ ok: true }));

serve({ fetch: app.fetch, port }, (info) => {
  console.log(`sandbox listening on http://localhost:${info.port}`);
});
