// Orders (spec: Endpoints 8 and 9). A seller only ever sees its own orders: another seller's id
// answers 404 like an unknown one.
import { Hono } from "hono";
import { z } from "zod";
import { objectIdSchema } from "@marketplace/api/schemas/common";
import { orderSchema, orderSortSchema } from "@marketplace/api/schemas/order";
import { apiGuard } from "./auth";
import type { SandboxContext, SandboxEnv } from "./context";
import { notFound } from "./errors";
import { fieldCatalogueFromSchema, listRecords, type ListSpec } from "./list-query";
import { pathParams } from "./validation";

const JSON_HEADERS = { "Content-Type": "application/json" };
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]}");

export const ORDERS_PATH = "/v1.0/marketplace/orders";

/** Default order: newest first. Orders are stored by created_at, so that sort costs nothing. */
export const orderListSpec: ListSpec = {
  path: ORDERS_PATH,
  fields: fieldCatalogueFromSchema(orderSchema),
  defaultSort: [{ field: "created_at", direction: "desc" }],
  naturalOrder: "created_at",
  // Spec 9: `_sort` is "One of created_at:asc, created_at:desc, updated_at:asc, updated_at:desc"
  // (each criterion of a multi-sort, generic rule 2); the range is spelled updated_at__ge/__le.
  rules: { sortCriteria: orderSortSchema.options, geLeFields: ["updated_at"] },
};

export function orderRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();

  routes.get(ORDERS_PATH, apiGuard(ctx, ["order-order:read"]), (c) => {
    const { user } = c.get("auth");
    const { meta, results } = listRecords(ctx.store.sellerOrders(user.id), new URL(c.req.url).searchParams, orderListSpec, {
      lenient: ctx.config.lenient,
    });
    const parts: Buffer[] = [Buffer.from(`{"meta":${JSON.stringify(meta)},"results":[`)];
    results.forEach((order, index) => {
      if (index > 0) parts.push(COMMA);
      parts.push(ctx.store.orderJson(order));
    });
    parts.push(CLOSE);
    return c.body(Buffer.concat(parts) as Uint8Array<ArrayBuffer>, 200, { ...JSON_HEADERS });
  });

  routes.get(`${ORDERS_PATH}/:id`, apiGuard(ctx, ["order-order:read"]), pathParams(z.object({ id: objectIdSchema })), (c) => {
    const { user } = c.get("auth");
    const entry = ctx.store.orderById.get(c.req.valid("param").id);
    if (!entry || entry.userId !== user.id) throw notFound("Order");
    return c.body(ctx.store.orderJson(entry.order) as Uint8Array<ArrayBuffer>, 200, { ...JSON_HEADERS });
  });

  return routes;
}
