// The control API (sandbox/README.md, "Control API"). A loopback sandbox has no token, so a page on
// any site the developer visits could post to it: routes that change something refuse a browser
// request from another site (403) and a body that is not JSON (415), all a form can send unpreflighted.
import { createHash, timingSafeEqual } from "node:crypto";
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import type { DeliveryStatus, Order, OrderStatus } from "@marketplace/api/schemas/order";
import { deliveryStatusSchema, orderStatusSchema } from "@marketplace/api/schemas/order";
import { SCOPES, scopeAppliesTo, scopeSchema } from "@marketplace/api/schemas/scopes";
import { WEBHOOK_DOMAINS } from "@marketplace/api/values";
import { readBearerToken } from "./auth";
import { isExposed, type SandboxConfig } from "./config";
import { CONSOLE_PAGES_PREFIX } from "./console-html";
import { isCrossSite } from "./console-origin";
import type { SandboxContext, SandboxEnv } from "./context";
import { SandboxHttpError, notFound } from "./errors";
import { faultsPatchSchema } from "./faults";
import { issueAccessToken } from "./oauth";
import { generateOrder, isArrangedBySeller } from "./seed";
import { jsonBody } from "./validation";
import { notifySeller } from "./notify";

/** The spec shows no transitions: these are sandbox choices. Finishing also needs every delivery delivered. */
export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  new: ["approved", "cancelled"],
  approved: ["finished", "cancelled"],
  finished: [],
  cancelled: [],
};

/** A delivery of the platform's delivery service (`order.delivery`). */
export const DELIVERY_TRANSITIONS: Record<DeliveryStatus, readonly DeliveryStatus[]> = {
  created: ["received"],
  received: ["posted"],
  posted: ["delivered"],
  delivered: [],
};

/** The statuses of `order.shipping` notifications (spec: Events → Domains and statuses). */
export const shippingStatusSchema = z.enum(WEBHOOK_DOMAINS["order.shipping"]);
export type ShippingStatus = z.infer<typeof shippingStatusSchema>;

/** A shipment the seller arranges (`order.shipping`); `created` is the state before shipping and sends nothing. */
export const SHIPPING_TRANSITIONS: Record<"created" | ShippingStatus, readonly ShippingStatus[]> = {
  created: ["shipped"],
  shipped: ["delivered"],
  delivered: [],
};

function conflict(message: string): SandboxHttpError {
  return new SandboxHttpError(409, "conflict", message);
}

function findOrder(ctx: SandboxContext, orderId: string): { order: Order; userId: string } {
  const entry = ctx.store.orderById.get(orderId);
  if (!entry) throw notFound("Order");
  return entry;
}

/** Control API and console alike: 404 unknown, 409 a transition the lifecycle has not. Sends `order.order`. */
export function moveOrder(ctx: SandboxContext, orderId: string, status: OrderStatus): Order {
  const { order, userId } = findOrder(ctx, orderId);
  if (!ORDER_TRANSITIONS[order.status].includes(status)) {
    throw conflict(`An order cannot go from ${order.status} to ${status}`);
  }
  if (status === "finished") {
    const open = order.deliveries.filter((delivery) => delivery.status !== "delivered");
    if (open.length > 0) {
      const list = open.map((delivery) => `${delivery.id} (${delivery.status})`).join(", ");
      throw conflict(`An order is finished only once every delivery is delivered; not yet: ${list}`);
    }
  }
  const now = ctx.clock.nowIso();
  order.status = status;
  order.updated_at = now;
  if (status === "approved") order.approved_at = now;
  ctx.store.orderChanged(userId, order);
  notifySeller(ctx, userId, { domain: "order.order", status, order_id: order.id });
  return order;
}

type DeliveryKind = "platform" | "seller";

/** Each kind of delivery moves only through its own route. */
function moveDeliveryOf(
  ctx: SandboxContext,
  kind: DeliveryKind,
  orderId: string,
  deliveryId: string,
  status: DeliveryStatus | ShippingStatus,
): Order {
  const { order, userId } = findOrder(ctx, orderId);
  const delivery = order.deliveries.find((candidate) => candidate.id === deliveryId);
  if (!delivery) throw notFound("Delivery");
  if (order.status === "cancelled") throw conflict("The order is cancelled: its deliveries cannot move");
  const bySeller = isArrangedBySeller(delivery);
  if (kind === "platform" && bySeller) {
    throw conflict(
      `Delivery ${delivery.id} is arranged by the seller: move it with POST /_sandbox/orders/${order.id}/deliveries/${delivery.id}/shipping (shipped, delivered)`,
    );
  }
  if (kind === "seller" && !bySeller) {
    throw conflict(
      `Delivery ${delivery.id} goes through the platform's delivery service: move it with POST /_sandbox/orders/${order.id}/deliveries/${delivery.id}/status (received, posted, delivered)`,
    );
  }
  const transitions: Record<string, readonly string[]> = kind === "seller" ? SHIPPING_TRANSITIONS : DELIVERY_TRANSITIONS;
  if (!(transitions[delivery.status] ?? []).includes(status)) {
    throw conflict(`A ${kind === "seller" ? "shipment" : "delivery"} cannot go from ${delivery.status} to ${status}`);
  }
  const now = ctx.clock.nowIso();
  delivery.status = status;
  if (status === "posted" || status === "shipped") delivery.shipping.posting_date = now;
  if (status === "delivered") delivery.shipping.delivery_date = now;
  order.updated_at = now;
  ctx.store.orderChanged(userId, order);
  notifySeller(ctx, userId, {
    domain: kind === "seller" ? "order.shipping" : "order.delivery",
    status,
    order_id: order.id,
    delivery_id: delivery.id,
  });
  return order;
}

export function moveDelivery(ctx: SandboxContext, orderId: string, deliveryId: string, status: DeliveryStatus): Order {
  return moveDeliveryOf(ctx, "platform", orderId, deliveryId, status);
}

export function moveShipment(ctx: SandboxContext, orderId: string, deliveryId: string, status: ShippingStatus): Order {
  return moveDeliveryOf(ctx, "seller", orderId, deliveryId, status);
}

/** A control route's JSON body: anything else is refused with 415 before the schema sees it. */
const controlJson = <T extends z.ZodType>(schema: T) => jsonBody(schema, 415);

/**
 * Refuses a POST or DELETE that a browser says comes from another site (console-origin.ts); GETs
 * change nothing and their JSON cannot be read across origins (the sandbox grants no CORS). The
 * console's form routes answer the same refusal as a page of their own (console.ts).
 */
const sameSiteOnly: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  const safe = c.req.method === "GET" || c.req.method === "HEAD";
  if (!safe && !c.req.path.startsWith(CONSOLE_PAGES_PREFIX) && isCrossSite(c)) {
    throw new SandboxHttpError(
      403,
      "cross_site_request",
      "Cross-site request refused: the control API takes requests from scripts (no Origin header) or from the console's own pages",
    );
  }
  await next();
};

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/**
 * Exposed sandbox: `Authorization: Bearer <SANDBOX_CONTROL_TOKEN>` on every /_sandbox/ route, health
 * and unknown paths included (401 before 404, so the routes are not probed). Digests of equal length
 * compared in constant time: neither the token nor its length leaks through timing. Without a token
 * (only possible with SANDBOX_CONTROL=off, see assertSafeExposure) health stays open.
 */
function controlTokenGuard(config: SandboxConfig): MiddlewareHandler<SandboxEnv> {
  const expected = config.controlToken === undefined ? null : digest(config.controlToken);
  if (!isExposed(config) || expected === null) return (_c, next) => next();
  return async (c, next) => {
    const presented = readBearerToken(c.req.header("Authorization"));
    if (presented === null || !timingSafeEqual(digest(presented), expected)) {
      throw new SandboxHttpError(
        401,
        "invalid_token",
        "The control API needs Authorization: Bearer <SANDBOX_CONTROL_TOKEN> when the sandbox is exposed",
      );
    }
    await next();
  };
}

export function controlRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();

  routes.use("/_sandbox/*", controlTokenGuard(ctx.config));
  // `epoch` changes whenever the sandbox seeds from scratch: `npm run dev` polls it to clear the
  // dashboard's database after a reset (sandbox-only; the platform has no such signal).
  routes.get("/_sandbox/health", (c) => c.json({ ok: true, now: ctx.clock.nowIso(), epoch: ctx.epoch }));

  routes.use("/_sandbox/*", async (c, next) => {
    if (!ctx.config.controlEnabled) throw notFound("Route");
    await next();
  });
  routes.use("/_sandbox/*", sameSiteOnly);

  routes.post("/_sandbox/reset", controlJson(z.strictObject({ seedOrders: z.number().int().min(0).max(1_000_000).optional() })), (c) => {
    const { seedOrders } = c.req.valid("json");
    ctx.reset(seedOrders === undefined ? {} : { seedOrders });
    return c.json({ ok: true, now: ctx.clock.nowIso(), epoch: ctx.epoch });
  });

  routes.get("/_sandbox/clock", (c) => c.json({ now: ctx.clock.nowIso(), offsetSeconds: ctx.clock.offsetSeconds }));
  routes.post(
    "/_sandbox/clock",
    controlJson(
      z.strictObject({
        advanceSeconds: z
          .number()
          .positive()
          .max(10 * 365 * 86_400),
      }),
    ),
    (c) => {
      ctx.clock.advance(c.req.valid("json").advanceSeconds);
      ctx.webhooks.kick();
      return c.json({ now: ctx.clock.nowIso(), offsetSeconds: ctx.clock.offsetSeconds });
    },
  );

  routes.post(
    "/_sandbox/orders",
    controlJson(z.strictObject({ seller: z.string().min(1), count: z.number().int().min(1).max(1000).default(1) })),
    (c) => {
      const { seller, count } = c.req.valid("json");
      const user = ctx.store.findUserByLogin(seller) ?? ctx.store.usersById.get(seller);
      if (!user) throw notFound(`Seller ${seller}`);
      const orders: Order[] = [];
      for (let i = 0; i < count; i++) {
        const now = ctx.clock.now();
        const order = generateOrder(ctx.runtimeRandom, ctx.newId, ctx.pools, { createdAt: now, status: "new" }, now);
        ctx.store.addOrder(user.id, order);
        notifySeller(ctx, user.id, { domain: "order.order", status: "new", order_id: order.id });
        orders.push(order);
      }
      return c.json({ orders }, 201);
    },
  );

  routes.post("/_sandbox/orders/:id/status", controlJson(z.strictObject({ status: orderStatusSchema })), (c) =>
    c.json({ order: moveOrder(ctx, c.req.param("id"), c.req.valid("json").status) }),
  );

  routes.post("/_sandbox/orders/:id/deliveries/:deliveryId/status", controlJson(z.strictObject({ status: deliveryStatusSchema })), (c) =>
    c.json({ order: moveDelivery(ctx, c.req.param("id"), c.req.param("deliveryId"), c.req.valid("json").status) }),
  );

  routes.post("/_sandbox/orders/:id/deliveries/:deliveryId/shipping", controlJson(z.strictObject({ status: shippingStatusSchema })), (c) =>
    c.json({ order: moveShipment(ctx, c.req.param("id"), c.req.param("deliveryId"), c.req.valid("json").status) }),
  );

  routes.get("/_sandbox/deliveries", (c) => {
    const deliveries = ctx.webhooks.list().map((delivery) => ({
      ...delivery,
      attempt: delivery.attempts.length,
      responseStatus: delivery.attempts.at(-1)?.responseStatus ?? null,
    }));
    return c.json({ deliveries, maxAttempts: ctx.webhooks.maxAttempts, retryDelaysMs: ctx.config.webhookRetryDelaysMs });
  });

  // Tokens for many seeded users at once, as if each had signed in and consented (scale tests:
  // SANDBOX_SEED_SELLERS); the OAuth flow itself is what the other tests go through.
  routes.post(
    "/_sandbox/tokens",
    controlJson(
      z.strictObject({
        sellers: z.array(z.string().min(1).max(254)).min(1).max(100_000),
        clientId: z.string().min(1).default("demo-integrator"),
        scopes: z.array(scopeSchema).min(1).optional(),
      }),
    ),
    (c) => {
      const { sellers, clientId, scopes } = c.req.valid("json");
      const app = ctx.store.apps.get(clientId);
      if (!app) throw notFound("Application");
      const granted = scopes ?? SCOPES.filter((scope) => scopeAppliesTo(scope, app.type));
      const invalid = granted.filter((scope) => !scopeAppliesTo(scope, app.type));
      if (invalid.length > 0)
        throw new SandboxHttpError(400, "invalid_request", `Scopes not available to this application: ${invalid.join(", ")}`);
      const users = sellers.map((seller) => ({ seller, user: ctx.store.findUserByLogin(seller) ?? ctx.store.usersById.get(seller) }));
      const unknown = users.filter((entry) => !entry.user).map((entry) => entry.seller);
      if (unknown.length > 0)
        throw new SandboxHttpError(404, "not_found", `Unknown sellers: ${unknown.slice(0, 5).join(", ")}${unknown.length > 5 ? " …" : ""}`);
      const tokens = users.map(({ seller, user }) => ({
        seller,
        userId: user!.id,
        access_token: issueAccessToken(ctx, { clientId: app.clientId, userId: user!.id, scopes: granted }),
      }));
      return c.json({ tokens, scope: granted.join(" ") });
    },
  );

  routes.get("/_sandbox/faults", (c) => c.json({ faults: ctx.faults.current }));
  routes.post("/_sandbox/faults", controlJson(faultsPatchSchema), (c) => c.json({ faults: ctx.faults.apply(c.req.valid("json")) }));
  routes.delete("/_sandbox/faults", (c) => {
    ctx.faults.clear();
    return c.json({ faults: ctx.faults.current });
  });

  return routes;
}
