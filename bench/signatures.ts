// npm run bench:signatures [-- --skip-build] [-- --sellers 10000] [-- --requests 300]
// What a mis-signed notification costs the receiver against a valid one, in each callback scope;
// bodies near the 64 KiB cap, where hashing costs most (bench/README.md).
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { decodeKey, parseEnv } from "@/lib/env.js";
import { encryptSecret, shopTokenContext } from "@/lib/crypto";
import { signWebhookBody } from "@marketplace/api/signature";
import { prepareWebhookBench, startDashboard, waitForServer } from "./lib/webhook-kit";
import { percentile } from "./lib/load";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    sellers: { type: "string", default: "10000" },
    requests: { type: "string", default: "300" },
    port: { type: "string", default: "3320" },
  },
});
const SELLERS = Number(args.sellers);
const REQUESTS = Number(args.requests);
const PORT = Number(args.port);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const BODY_BYTES = 63 * 1024;

const childEnv = { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" } as NodeJS.ProcessEnv;

/** A notification padded near the cap; `tag` makes each body distinct (no replay folding). */
function paddedBody(data: Record<string, string>, tag: string): string {
  const base = JSON.stringify({ data: { ...data, note: "" } });
  const note = `${tag}-`.padEnd(BODY_BYTES - base.length, "x");
  return JSON.stringify({ data: { ...data, note } });
}

type Kind = "valid" | "missing" | "forged";

async function measure(
  receiverUrl: string,
  token: string,
  foreignOrderId: string,
  kinds: readonly Kind[],
): Promise<Record<Kind, number[]> & { statuses: Record<string, number> }> {
  const times: Record<Kind, number[]> = { valid: [], missing: [], forged: [] };
  const statuses: Record<string, number> = {};
  for (let index = 0; index < REQUESTS * kinds.length; index++) {
    const kind = kinds[index % kinds.length]!;
    const tag = randomBytes(8).toString("hex");
    const body =
      kind === "valid"
        ? paddedBody({ domain: "chat", status: "message_received", id: tag, code: "c" }, tag)
        : paddedBody({ domain: "order.order", status: "approved", order_id: foreignOrderId }, tag);
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (kind === "valid") headers["x-svc-signature"] = signWebhookBody(body, token);
    if (kind === "forged") headers["x-svc-signature"] = signWebhookBody(body, `forger-${tag}`);
    const started = performance.now();
    const response = await fetch(receiverUrl, { method: "POST", headers, body });
    await response.arrayBuffer();
    times[kind].push(performance.now() - started);
    statuses[`${kind} ${response.status}`] = (statuses[`${kind} ${response.status}`] ?? 0) + 1;
  }
  return { ...times, statuses };
}

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
};

async function main() {
  const {
    db,
    platform,
    seller: shop,
  } = await prepareWebhookBench({
    database: "bench_signatures",
    platformPort: 4320,
    childEnv,
    skipBuild: args["skip-build"],
  });
  const key = decodeKey(parseEnv(childEnv).TOKEN_ENCRYPTION_KEY)!;

  // The other shops, each with its own token and one order in its mirror.
  const seedStarted = performance.now();
  const others: string[] = [];
  for (let from = 0; from < SELLERS - 1; from += 1_000) {
    const ids: string[] = [];
    const tokens: string[] = [];
    const webhookKeys: string[] = [];
    for (let index = from; index < Math.min(from + 1_000, SELLERS - 1); index++) {
      const id = `bench-shop-${index}`;
      ids.push(id);
      tokens.push(encryptSecret(randomBytes(24).toString("base64url"), shopTokenContext(id), key));
      webhookKeys.push(randomBytes(24).toString("base64url"));
    }
    await db.query(
      `INSERT INTO "Seller" (id, email, name, "updatedAt") SELECT id, id || '@bench.example', 'Bench shop', now() FROM unnest($1::text[]) AS id`,
      [ids],
    );
    await db.query(
      `INSERT INTO "Connection" (id, "sellerId", "accessTokenEnc", "scopesRequested", "webhookKey")
       SELECT 'conn-' || id, id, token, 'basic_user_info order-order:read', webhook_key FROM unnest($1::text[], $2::text[], $3::text[]) AS t(id, token, webhook_key)`,
      [ids, tokens, webhookKeys],
    );
    await db.query(
      `INSERT INTO "OrderMirror" ("sellerId", "orderId", "status", "createdAt", "updatedAt", "customerName", "total", "currency", "normalizer", "itemCount", "deliveries", "syncedAt")
       SELECT id, order_id, 'new', now(), now(), 'Cliente', 1000, 'BRL', 100, 1, '[]', now() FROM unnest($1::text[], $2::text[]) AS t(id, order_id)`,
      [ids, ids.map((_, offset) => (from + offset + 1).toString(16).padStart(24, "0"))],
    );
    // Reconciled just now: the instance's reconciliation leaves them alone while it is measured.
    await db.query(
      `INSERT INTO "SellerSync" ("sellerId", "cursor", "lastReconciledAt", "backfillState") SELECT id, now(), now(), 'done' FROM unnest($1::text[]) AS id`,
      [ids],
    );
    others.push(...ids);
  }
  const foreignOrderId = (await db.query<{ orderId: string }>(`SELECT "orderId" FROM "OrderMirror" WHERE "sellerId" = $1`, [others[0]]))
    .rows[0]!.orderId;
  const connected = (await db.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM "Connection"`)).rows[0]!.n;
  console.log(
    `connected shops: ${connected} (seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s); bodies of ${BODY_BYTES} bytes; ${REQUESTS} requests of each kind, one at a time`,
  );
  const receiverUrl = `${ORIGIN}/api/webhooks/marketplace/${shop.webhookKey}`;

  const rows: { label: string; result: Awaited<ReturnType<typeof measure>> }[] = [];
  const runs: { label: string; env: Record<string, string>; kinds: Kind[] }[] = [
    {
      label: "user",
      env: { MARKETPLACE_CALLBACK_SCOPE: "user", WEBHOOK_FAILED_SIGNATURES_PER_MINUTE: "100000" },
      kinds: ["valid", "missing", "forged"],
    },
    {
      label: "application",
      env: { MARKETPLACE_CALLBACK_SCOPE: "application", WEBHOOK_FAILED_SIGNATURES_PER_MINUTE: "100000" },
      kinds: ["valid", "missing", "forged"],
    },
    { label: "application, default limit (60/min)", env: { MARKETPLACE_CALLBACK_SCOPE: "application" }, kinds: ["valid", "forged"] },
  ];
  try {
    for (const run of runs) {
      const dashboard = startDashboard(PORT, { ...childEnv, ...run.env });
      try {
        await waitForServer(`${ORIGIN}/`);
        // Warm-up: JIT, the receiver's key cache, prepared statements.
        await measure(receiverUrl, shop.accessToken, foreignOrderId, ["valid", "missing"]);
        rows.push({ label: run.label, result: await measure(receiverUrl, shop.accessToken, foreignOrderId, run.kinds) });
      } finally {
        dashboard.signal("SIGINT");
        await new Promise((resolve) => setTimeout(resolve, 1_500));
      }
    }
  } finally {
    platform.stop();
    await db.end();
  }

  console.log("\nscope                                | kind    | p50 ms | p95 ms | forged/valid p50, p95 | answers");
  for (const { label, result } of rows) {
    const valid = summary(result.valid);
    for (const kind of ["valid", "missing", "forged"] as const) {
      if (result[kind].length === 0) continue;
      const { p50, p95 } = summary(result[kind]);
      const answers = Object.entries(result.statuses)
        .filter(([name]) => name.startsWith(kind))
        .map(([name, count]) => `${name.split(" ")[1]}×${count}`)
        .join(" ");
      const ratio = kind === "forged" ? `${(p50 / valid.p50).toFixed(2)}, ${(p95 / valid.p95).toFixed(2)}` : "";
      console.log(
        `${label.padEnd(36)} | ${kind.padEnd(7)} | ${p50.toFixed(2).padStart(6)} | ${p95.toFixed(2).padStart(6)} | ${ratio.padStart(21)} | ${answers}`,
      );
    }
  }
}

await main();
