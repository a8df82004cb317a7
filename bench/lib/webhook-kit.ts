// What the webhook benchmarks share: the real sandbox as the platform (processing fetches every
// order it is told of), a seller written the way the dashboard writes one with a real token, signed
// order events about real orders prepared up front (so the load generator does no crypto), and
// waiting for a server.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import pg from "pg";
import { encryptSecret, shopTokenContext } from "@/lib/crypto";
import { decodeKey, parseEnv } from "@/lib/env.js";
import { signWebhookBody } from "@marketplace/api/signature";
import { extraSeller } from "@marketplace/sandbox/seed";
import { obtainAccessToken } from "@marketplace/sandbox/testing";
import { migrateFreshDatabase } from "@/scripts/migrate";
import { withServerNodeOptions } from "@/scripts/lib/server-node-options";

export interface BenchPlatform {
  url: string;
  /** The sandbox's process. */
  pid: number;
  /** A real access token of a sandbox user, through the OAuth flow. */
  tokenFor(login: string): Promise<string>;
  /** Creates orders for a sandbox user; their notifications go nowhere (no callback URL is set). */
  createOrders(login: string, count: number): Promise<BenchOrder[]>;
  stop(): void;
}

export interface BenchOrder {
  id: string;
  deliveryId: string;
}

/** The sandbox in a process of its own (as in development), with no seeded orders. */
export async function startBenchPlatform(port: number): Promise<BenchPlatform> {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
    env: { ...process.env, SANDBOX_PORT: String(port), SANDBOX_SEED_ORDERS: "0" },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const stop = () => {
    try {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
    } catch {}
  };
  process.on("exit", stop);
  await waitForServer(`${url}/_sandbox/health`);
  return {
    url,
    pid: child.pid!,
    tokenFor: (login) => obtainAccessToken(url, { login }),
    async createOrders(login, count) {
      const orders: BenchOrder[] = [];
      for (let left = count; left > 0; left -= 1_000) {
        const response = await fetch(`${url}/_sandbox/orders`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ seller: login, count: Math.min(left, 1_000) }),
        });
        if (response.status !== 201) throw new Error(`creating orders answered ${response.status}`);
        const { orders: created } = (await response.json()) as { orders: { id: string; deliveries: { id: string }[] }[] };
        orders.push(...created.map((order) => ({ id: order.id, deliveryId: order.deliveries[0]?.id ?? order.id })));
      }
      return orders;
    },
    stop,
  };
}

export interface BenchSeller {
  sellerId: string;
  /** The shop's owner (a person), for a session cookie. */
  personId: string;
  accessToken: string;
  webhookKey: string;
}

/** A shop with a connection (encrypted token, as the dashboard stores it) and an owner. */
export async function seedBenchSeller(db: pg.Client, env: NodeJS.ProcessEnv, accessToken: string): Promise<BenchSeller> {
  const { TOKEN_ENCRYPTION_KEY } = parseEnv(env);
  const shopId = `bench-${randomBytes(6).toString("hex")}`;
  const webhookKey = randomBytes(24).toString("base64url");
  await db.query(`INSERT INTO "Seller" (id, email, name, "updatedAt") VALUES ($1, $2, 'Bench Seller', now())`, [
    shopId,
    `${shopId}@bench.example`,
  ]);
  await db.query(
    `INSERT INTO "Connection" (id, "sellerId", "accessTokenEnc", "scopesRequested", "webhookKey") VALUES ($1, $2, $3, $4, $5)`,
    [
      `conn-${shopId}`,
      shopId,
      encryptSecret(accessToken, shopTokenContext(shopId), decodeKey(TOKEN_ENCRYPTION_KEY)!),
      "basic_user_info order-order:read",
      webhookKey,
    ],
  );
  // Back-filled already, and next reconciled after the run: the back-fill at a connect lists and
  // mirrors every order, thousands here, on the request thread. Left to the shop's random first
  // slot (0–300 s), it ran during some rounds and not others (issue 41). The orders the events are
  // about stay new to the mirror, so processing tells them (notifications written).
  await db.query(
    `INSERT INTO "SellerSync" ("sellerId", "backfillState", "cursor", "backfillFinishedAt", "lastReconciledAt", "nextRunAt")
     VALUES ($1, 'done', now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC', (now() AT TIME ZONE 'UTC') + interval '1 hour')`,
    [shopId],
  );
  const personId = `p_${shopId}`;
  await db.query(`INSERT INTO "Person" (id, name) VALUES ($1, 'Bench Owner')`, [personId]);
  await db.query(`INSERT INTO "Membership" ("sellerId", "personId", role) VALUES ($1, $2, 'owner')`, [shopId, personId]);
  return { sellerId: shopId, personId, accessToken, webhookKey };
}

export interface ConnectedExtraSeller {
  /** The shop's id here: `scale-<n>` for the sandbox's extra seller n. */
  id: string;
  email: string;
  token: string;
  webhookKey: string;
}

/**
 * The sandbox's first `count` extra sellers (SANDBOX_SEED_SELLERS) connected as the dashboard
 * connects a shop: the encrypted token, an owner who signs in with the seller's marketplace account
 * (so their e-mail address is the account's). The tokens come from `POST /_sandbox/tokens`, one
 * request per 2,000 sellers, not from `count` OAuth flows.
 */
export async function connectExtraSellers(
  db: pg.Client,
  env: NodeJS.ProcessEnv,
  sandbox: string,
  count: number,
): Promise<ConnectedExtraSeller[]> {
  const key = decodeKey(parseEnv(env).TOKEN_ENCRYPTION_KEY)!;
  const shops: ConnectedExtraSeller[] = [];
  for (let from = 1; from <= count; from += 2_000) {
    const sellers = Array.from({ length: Math.min(2_000, count - from + 1) }, (_, i) => extraSeller(from + i));
    const response = await fetch(`${sandbox}/_sandbox/tokens`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sellers: sellers.map((shop) => shop.email), scopes: ["basic_user_info", "order-order:read"] }),
    });
    if (response.status !== 200) throw new Error(`tokens: ${response.status} ${await response.text()}`);
    const { tokens } = (await response.json()) as { tokens: { seller: string; access_token: string }[] };
    const batch = tokens.map((entry, i) => ({
      id: `scale-${from + i}`,
      email: entry.seller,
      name: sellers[i]!.name,
      token: entry.access_token,
      webhookKey: randomBytes(24).toString("base64url"),
    }));
    const ids = batch.map((shop) => shop.id);
    const emails = batch.map((shop) => shop.email);
    const names = batch.map((shop) => shop.name);
    await db.query(
      `INSERT INTO "Seller" (id, email, "platformEmail", name, "updatedAt") SELECT id, email, email, name, now() FROM unnest($1::text[], $2::text[], $3::text[]) AS t(id, email, name)`,
      [ids, emails, names],
    );
    await db.query(
      `INSERT INTO "Connection" (id, "sellerId", "accessTokenEnc", "scopesRequested", "webhookKey")
       SELECT 'conn-' || id, id, token, 'basic_user_info order-order:read', webhook_key FROM unnest($1::text[], $2::text[], $3::text[]) AS t(id, token, webhook_key)`,
      [ids, batch.map((shop) => encryptSecret(shop.token, shopTokenContext(shop.id), key)), batch.map((shop) => shop.webhookKey)],
    );
    // As personForMarketplaceAccount writes the person (the sandbox's addresses are lower case already).
    await db.query(
      `INSERT INTO "Person" (id, name, "marketplaceEmail", "platformEmail") SELECT 'p_' || id, name, email, email FROM unnest($1::text[], $2::text[], $3::text[]) AS t(id, email, name)`,
      [ids, emails, names],
    );
    await db.query(`INSERT INTO "Membership" ("sellerId", "personId", role) SELECT id, 'p_' || id, 'owner' FROM unnest($1::text[]) AS id`, [
      ids,
    ]);
    shops.push(...batch.map(({ id, email, token, webhookKey }) => ({ id, email, token, webhookKey })));
  }
  return shops;
}

export interface SignedPost {
  url: string;
  body: string;
  signature: string;
}

/**
 * Posts each at its time, `rate` a second, whatever the answers so far (the platform does not wait
 * for one delivery to send the next). `answered` hears of each answer, a status or an error code,
 * and when it arrived (performance.now()). Answers the count of each, and the seconds until the
 * last answer.
 */
export async function postAtRate(
  posts: readonly SignedPost[],
  rate: number,
  answered?: (index: number, answer: number | string, at: number) => void,
): Promise<{ answers: Record<string, number>; sendSeconds: number }> {
  const started = performance.now();
  const answers: Record<string, number> = {};
  const count = (index: number, answer: number | string) => {
    answers[answer] = (answers[answer] ?? 0) + 1;
    answered?.(index, answer, performance.now());
  };
  const inFlight = new Set<Promise<void>>();
  for (const [index, post] of posts.entries()) {
    const wait = started + (index * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = fetch(post.url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-svc-signature": post.signature },
      body: post.body,
    })
      .then(async (response) => {
        count(index, response.status);
        await response.arrayBuffer().catch(() => undefined);
      })
      .catch((error: unknown) => count(index, (error as { cause?: { code?: string } }).cause?.code ?? "error"))
      .finally(() => inFlight.delete(sent));
    inFlight.add(sent);
  }
  await Promise.all(inFlight);
  return { answers, sendSeconds: (performance.now() - started) / 1000 };
}

export interface SignedPayload {
  /** What the live message of the event names: domain, status and order. */
  key: string;
  orderId: string;
  body: string;
  signature: string;
}

/** The notifications an order can have (spec: Domains and statuses), each a distinct body. */
const ORDER_NOTIFICATIONS = [
  ...["new", "approved", "cancelled", "finished"].map((status) => ({ domain: "order.order", status })),
  ...["created", "received", "posted", "delivered"].map((status) => ({ domain: "order.delivery", status })),
  ...["shipped", "delivered"].map((status) => ({ domain: "order.shipping", status })),
];

/** Distinct order events (the spec's order form) about `orders`: up to 10 per order, order after order. */
export function makeOrderEvents(orders: readonly BenchOrder[], count: number, accessToken: string): SignedPayload[] {
  if (count > orders.length * ORDER_NOTIFICATIONS.length)
    throw new Error(`${orders.length} orders give fewer than ${count} distinct events`);
  return Array.from({ length: count }, (_, index) => {
    const order = orders[index % orders.length]!;
    const { domain, status } = ORDER_NOTIFICATIONS[Math.floor(index / orders.length)]!;
    const body = JSON.stringify({ data: { domain, status, order_id: order.id, delivery_id: order.deliveryId } });
    return { key: `${domain}:${status}:${order.id}`, orderId: order.id, body, signature: signWebhookBody(body, accessToken) };
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

/**
 * Posts signed events for `seconds` over `connections` connections; `next` picks each request's
 * event, and `acknowledged` (if given) hears of each one the receiver answered with a 2xx. Requests
 * still in flight when the time is up are cut off unanswered: like the platform's, they were not
 * acknowledged, and may or may not have been stored.
 */
export function postSignedEvents(options: {
  url: string;
  connections: number;
  seconds: number;
  next: () => SignedPayload;
  acknowledged?: (payload: SignedPayload) => void;
}) {
  // One request in flight per connection (no pipelining): the connection's context holds its event.
  type Context = { payload?: SignedPayload };
  return autocannon({
    url: options.url,
    method: "POST",
    connections: options.connections,
    pipelining: 1,
    duration: options.seconds,
    headers: { "content-type": "application/json" },
    requests: [
      {
        setupRequest: (request, context: Context) => {
          const payload = options.next();
          context.payload = payload;
          return { ...request, body: payload.body, headers: { ...request.headers, "x-svc-signature": payload.signature } };
        },
        onResponse: (status, _body, context: Context) => {
          if (status >= 200 && status < 300 && context.payload) options.acknowledged?.(context.payload);
        },
      },
    ],
  });
}

const POLL_MS = 50;

/**
 * Waits until none of the seller's events waits for processing; answers the seconds it took. Looks
 * every 50 ms with a question that stops at the first waiting event, so the answer is within about
 * 50 ms and the looking costs the database next to nothing: counting them all took 15 ms a look,
 * on the core processing needs, and so did a join of the queue with the events (pg_stat_statements:
 * 17.8 ms a look, 1.5 s of a run). The queue rows of received events name their shop, and an index
 * leads with it (only "Process again" queues an event without it, which no bench does).
 */
export async function backlogDrained(db: pg.Client, shopId: string): Promise<number> {
  const started = performance.now();
  for (let waited = 0; waited < 120_000; waited += POLL_MS) {
    const backlog = await db.query<{ waiting: boolean }>(`SELECT EXISTS (SELECT 1 FROM "WebhookWork" WHERE "sellerId" = $1) AS "waiting"`, [
      shopId,
    ]);
    if (!backlog.rows[0]!.waiting) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return (performance.now() - started) / 1000;
}

export interface WebhookBench {
  databaseUrl: string;
  db: pg.Client;
  platform: BenchPlatform;
  /** seller@example.com of the sandbox, connected to the dashboard. */
  seller: BenchSeller;
}

/**
 * What every webhook benchmark starts with: a production build (unless `skipBuild`), a fresh
 * migrated database of its own, the sandbox as the platform, and a connected seller. `childEnv`
 * (the dashboard's environment) gets the database and the platform's URLs.
 */
export async function prepareWebhookBench(options: {
  database: string;
  platformPort: number;
  childEnv: NodeJS.ProcessEnv;
  skipBuild: boolean;
}): Promise<WebhookBench> {
  const { childEnv } = options;
  if (!options.skipBuild) {
    const build = spawnSync("npx", ["next", "build"], { stdio: "inherit", env: childEnv });
    if (build.status !== 0) throw new Error("next build failed");
  }
  const databaseUrl = await migrateFreshDatabase(options.database);
  childEnv.DATABASE_URL = databaseUrl;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  // The platform: the real sandbox, which processing asks for every order it is told of.
  const platform = await startBenchPlatform(options.platformPort);
  childEnv.MARKETPLACE_BASE_URL = platform.url;
  childEnv.MARKETPLACE_AUTH_URL = platform.url;
  const shop = await seedBenchSeller(db, childEnv, await platform.tokenFor("seller@example.com"));
  return { databaseUrl, db, platform, seller: shop };
}

export interface BenchDashboard {
  /** The process `next start` runs in (the Next server may be a child of it). */
  pid: number;
  /** Signals the dashboard and its worker (their process groups). */
  signal(signal: NodeJS.Signals): void;
}

/**
 * One dashboard instance as `npm start` runs it: `next start` of the production build and, with
 * `env.WEBHOOK_PROCESSING=worker`, a processing worker beside it, with the server's Node options
 * (scripts/lib/server-node-options.ts). Node runs Next directly (not through npx) so `nodeArgs` can
 * hand it --cpu-prof.
 */
export function startDashboard(port: number, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): BenchDashboard {
  // Metrics off unless the bench names a port: two instances and a worker on one machine could not share one.
  const childEnv: NodeJS.ProcessEnv = { ...env, METRICS_PORT: "off" };
  const children = [
    spawn(process.execPath, [...nodeArgs, "node_modules/next/dist/bin/next", "start", "--port", String(port)], {
      env: withServerNodeOptions({ ...childEnv, METRICS_PORT: env.METRICS_PORT ?? "off" }),
      // BENCH_SERVER_LOG=1: the server's log lines (warnings and worse) on this process's stderr.
      stdio: ["ignore", env.BENCH_SERVER_LOG === "1" ? "inherit" : "ignore", "inherit"],
      detached: true,
    }),
  ];
  if (childEnv.WEBHOOK_PROCESSING === "worker") {
    children.push(
      spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", "scripts/worker.ts"], {
        env: childEnv,
        stdio: ["ignore", "ignore", "inherit"],
        detached: true,
      }),
    );
  }
  const signal = (name: NodeJS.Signals) => {
    for (const child of children) {
      try {
        if (child.pid) process.kill(-child.pid, name);
      } catch {}
    }
  };
  process.on("exit", () => signal("SIGKILL"));
  return { pid: children[0]!.pid!, signal };
}
