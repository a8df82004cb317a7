// What the webhook benchmarks share: a seller written the way the dashboard writes one, signed
// order events prepared up front (so the load generator does no crypto), and waiting for a server.
import { createHash, randomBytes } from "node:crypto";
import autocannon from "autocannon";
import type pg from "pg";
import { encryptSecret, sellerTokenContext } from "../../lib/crypto";
import { decodeKey, parseEnv } from "../../lib/env.js";
import { signWebhookBody } from "../../lib/webhooks/signature";

export interface BenchSeller {
  sellerId: string;
  accessToken: string;
  webhookKey: string;
}

/** A seller with a connection (encrypted token, as the dashboard stores it). */
export async function seedBenchSeller(db: pg.Client, env: NodeJS.ProcessEnv): Promise<BenchSeller> {
  const { TOKEN_ENCRYPTION_KEY } = parseEnv(env);
  const sellerId = `bench-${randomBytes(6).toString("hex")}`;
  const accessToken = randomBytes(24).toString("base64url");
  const webhookKey = randomBytes(24).toString("base64url");
  await db.query(`INSERT INTO "Seller" (id, email, name, "updatedAt") VALUES ($1, $2, 'Bench Seller', now())`, [sellerId, `${sellerId}@bench.example`]);
  await db.query(`INSERT INTO "Connection" (id, "sellerId", "accessTokenEnc", "scopesRequested", "webhookKey") VALUES ($1, $2, $3, $4, $5)`, [
    `conn-${sellerId}`,
    sellerId,
    encryptSecret(accessToken, sellerTokenContext(sellerId), decodeKey(TOKEN_ENCRYPTION_KEY)!),
    "basic_user_info order-order:read",
    webhookKey,
  ]);
  return { sellerId, accessToken, webhookKey };
}

export interface SignedPayload {
  orderId: string;
  body: string;
  signature: string;
}

/** Realistic order events (the spec's order form), each with its own order id. */
export function makeOrderEvents(count: number, accessToken: string, seed = "order"): SignedPayload[] {
  const statuses = ["new", "approved", "cancelled", "finished"];
  return Array.from({ length: count }, (_, index) => {
    const orderId = createHash("md5").update(`${seed}-${index}`).digest("hex").slice(0, 24);
    const body = JSON.stringify({
      data: {
        domain: "order.order",
        status: statuses[index % statuses.length],
        order_id: orderId,
        delivery_id: createHash("md5").update(`delivery-${seed}-${index}`).digest("hex").slice(0, 24),
      },
    });
    return { orderId, body, signature: signWebhookBody(body, accessToken) };
  });
}

export async function waitForServer(url: string, timeoutMs = 60_000) {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`${url} did not come up`);
}

/** Posts signed events for `seconds` over `connections` connections; `next` picks each request's event. */
export function postSignedEvents(options: { url: string; connections: number; seconds: number; next: () => SignedPayload }) {
  return autocannon({
    url: options.url,
    method: "POST",
    connections: options.connections,
    duration: options.seconds,
    headers: { "content-type": "application/json" },
    requests: [
      {
        setupRequest: (request) => {
          const payload = options.next();
          return { ...request, body: payload.body, headers: { ...request.headers, "x-svc-signature": payload.signature } };
        },
      },
    ],
  });
}
