// The control API under /_sandbox/ (tests and demos; off with SANDBOX_CONTROL=off → every route
// but /_sandbox/health answers 404). JSON in, JSON out. No authentication on a loopback address;
// when the sandbox is exposed (SANDBOX_HOST), every /_sandbox/ route wants the control token.
import { createHash, timingSafeEqual } from "node:crypto";
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import type { DeliveryStatus, Order, OrderStatus } from "@/lib/marketplace/schemas/order";
import { deliveryStatusSchema, orderStatusSchema } from "@/lib/marketplace/schemas/order";
import { readBearerToken } from "./auth";
import { isExposed, type SandboxConfig } from "./config";
import type { SandboxContext, SandboxEnv } from "./context";
import { SandboxHttpError, notFound } from "./errors";
import { faultsPatchSchema } from "./faults";
import { generateOrder } from "./seed";
import { jsonBody } from "./validation";
import { notifySeller } from "./webhooks";

/** Order lifecycle (the spec shows no transitions): new → approved → finished; new|approved → cancelled. */
export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  new: ["approved", "cancelled"],
  approved: ["finished", "cancelled"],
  finished: [],
  cancelled: [],
};

/** Delivery lifecycle, one step at a time: created → received → posted → delivered. */
export const DELIVERY_TRANSITIONS: Record<DeliveryStatus, readonly DeliveryStatus[]> = {
  created: ["received"],
  received: ["posted"],
  posted: ["delivered"],
  delivered: [],
};

function conflict(message: string): SandboxHttpError {
  return new SandboxHttpError(409, "conflict", message);
}

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
      throw new SandboxHttpError(401, "invalid_token", "The control API needs Authorization: Bearer <SANDBOX_CONTROL_TOKEN> when the sandbox is exposed");
    }
    await next();
  };
}

export function controlRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();

  routes.use("/_sandbox/*", controlTokenGuard(ctx.config));
  routes.get("/_sandbox/health", (c) => c.json({ ok: true, now: ctx.clock.nowIso() }));

  routes.use("/_sandbox/*", async (c, next) => {
    if (!ctx.config.controlEnabled) throw notFound("Route");
    await next();
  });

  routes.post("/_sandbox/reset", jsonBody(z.strictObject({ seedOrders: z.number().int().min(0).max(1_000_000).optional() })), (c) => {
    const { seedOrders } = c.req.valid("json");
    ctx.reset(seedOrders === undefined ? {} : { seedOrders });
    return c.json({ ok: true, now: ctx.clock.nowIso() });
  });

  routes.get("/_sandbox/clock", (c) => c.json({ now: ctx.clock.nowIso(), offsetSeconds: ctx.clock.offsetSeconds }));
  routes.post("/_sandbox/clock", jsonBody(z.strictObject({ advanceSeconds: z.number().positive().max(10 * 365 * 86_400) })), (c) => {
    ctx.clock.advance(c.req.valid("json").advanceSeconds);
    ctx.webhooks.kick();
    return c.json({ now: ctx.clock.nowIso(), offsetSeconds: ctx.clock.offsetSeconds });
  });

  routes.post(
    "/_sandbox/orders",
    jsonBody(z.strictObject({ seller: z.string().min(1), count: z.number().int().min(1).max(1000).default(1) })),
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

  routes.post("/_sandbox/orders/:id/status", jsonBody(z.strictObject({ status: orderStatusSchema })), (c) => {
    const entry = ctx.store.orderById.get(c.req.param("id"));
    if (!entry) throw notFound("Order");
    const { order, userId } = entry;
    const { status } = c.req.valid("json");
    if (!ORDER_TRANSITIONS[order.status].includes(status)) {
      throw conflict(`An order cannot go from ${order.status} to ${status}`);
    }
    const now = ctx.clock.nowIso();
    order.status = status;
    order.updated_at = now;
    if (status === "approved") order.approved_at = now;
    ctx.store.orderChanged(userId, order);
    notifySeller(ctx, userId, { domain: "order.order", status, order_id: order.id });
    return c.json({ order });
  });

  routes.post("/_sandbox/orders/:id/deliveries/:deliveryId/status", jsonBody(z.strictObject({ status: deliveryStatusSchema })), (c) => {
    const entry = ctx.store.orderById.get(c.req.param("id"));
    if (!entry) throw notFound("Order");
    const { order, userId } = entry;
    const delivery = order.deliveries.find((candidate) => candidate.id === c.req.param("deliveryId"));
    if (!delivery) throw notFound("Delivery");
    const { status } = c.req.valid("json");
    if (order.status === "cancelled") throw conflict("The order is cancelled: its deliveries cannot move");
    const current = deliveryStatusSchema.safeParse(delivery.status);
    if (!current.success || !DELIVERY_TRANSITIONS[current.data].includes(status)) {
      throw conflict(`A delivery cannot go from ${delivery.status} to ${status}`);
    }
    const now = ctx.clock.nowIso();
    delivery.status = status;
    if (status === "posted") delivery.shipping.posting_date = now;
    if (status === "delivered") delivery.shipping.delivery_date = now;
    order.updated_at = now;
    ctx.store.orderChanged(userId, order);
    notifySeller(ctx, userId, { domain: "order.delivery", status, order_id: order.id, delivery_id: delivery.id });
    return c.json({ order });
  });

  routes.get("/_sandbox/deliveries", (c) => {
    const deliveries = ctx.webhooks.list().map((delivery) => ({
      ...delivery,
      attempt: delivery.attempts.length,
      responseStatus: delivery.attempts.at(-1)?.responseStatus ?? null,
    }));
    return c.json({ deliveries, maxAttempts: ctx.webhooks.maxAttempts, retryDelaysMs: ctx.config.webhookRetryDelaysMs });
  });

  routes.get("/_sandbox/faults", (c) => c.json({ faults: ctx.faults.current }));
  routes.post("/_sandbox/faults", jsonBody(faultsPatchSchema), (c) => c.json({ faults: ctx.faults.apply(c.req.valid("json")) }));
  routes.delete("/_sandbox/faults", (c) => {
    ctx.faults.clear();
    return c.json({ faults: ctx.faults.current });
  });

  return routes;
}
