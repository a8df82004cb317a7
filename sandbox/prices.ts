// Prices (spec: Endpoints 5–7). The spec leaves price failures open; the sandbox answers them with
// the SKU import codes' meanings (sandbox/README.md, "Prices").
import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
import { objectIdSchema } from "@marketplace/api/schemas/common";
import type { Price, PriceCreateResponse, PriceWithHistory } from "@marketplace/api/schemas/price";
import { PRICE_STATUS, priceCreateSchema, priceSchema } from "@marketplace/api/schemas/price";
import { issuesToImportErrors } from "@marketplace/api/schemas/sku";
import type { ImportError } from "@marketplace/api/schemas/sku";
import { apiGuard } from "./auth";
import { bodyTooLargeMessage, JSON_BODY_LIMIT_BYTES, type BodyLimitRule } from "./body-limit";
import type { SandboxContext, SandboxEnv } from "./context";
import { notFound } from "./errors";
import { fieldCatalogueFromSchema, listRecords, type ListSpec } from "./list-query";
import type { PriceRecord } from "./store";
import { hasJsonOrNoBody, NOT_JSON_MESSAGE, pathParams } from "./validation";
import { notifySeller } from "./notify";

export const PRICES_PATH = "/v1.0/marketplace/portfolios/prices";

export const priceListSpec: ListSpec = {
  path: PRICES_PATH,
  fields: fieldCatalogueFromSchema(priceSchema),
  defaultSort: [{ field: "created_at", direction: "desc" }],
  // Spec 7: "Sortable field: created_at" (with or without a direction, generic rule 2); no __ge/__le.
  rules: { sortCriteria: ["created_at", "created_at:asc", "created_at:desc"], geLeFields: [] },
};

export function toWirePrice(record: PriceRecord): Price {
  const { id, sku, type, value, currency, normalizer, extras, created_at } = record;
  return { id, sku, type, value, currency, normalizer, extras, created_at };
}

/** A price as reads return it: the spec gives prices `priceHistory` "on reads", the list as well as the retrieve. */
export function toWirePriceWithHistory(record: PriceRecord): PriceWithHistory {
  return { ...toWirePrice(record), priceHistory: record.history };
}

type PriceStatus = (typeof PRICE_STATUS)[keyof typeof PRICE_STATUS];

function failure(status: PriceStatus, errors: ImportError[]): PriceCreateResponse {
  return {
    token: randomBytes(12).toString("hex"),
    id: null,
    statusCode: status.statusCode,
    statusMessage: status.statusMessage,
    errors,
    data: null,
  };
}

/** A body above 1 MiB: HTTP 413 with statusCode -4 (the body is invalid), before anything is read. */
export const priceBodyLimit: BodyLimitRule = {
  path: PRICES_PATH,
  maxBytes: JSON_BODY_LIMIT_BYTES,
  tooLarge: (c, maxBytes) => c.json(failure(PRICE_STATUS.invalid, [{ field: "body", message: bodyTooLargeMessage(maxBytes) }]), 413),
};

export function priceRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();

  routes.post(PRICES_PATH, apiGuard(ctx, ["portfolio:write"]), async (c) => {
    const { user } = c.get("auth");
    const answer = (status: ContentfulStatusCode, body: PriceCreateResponse) => c.json(body, status);
    // Checked before the empty-body case: a text/plain form post declares its type even when empty.
    if (!hasJsonOrNoBody(c)) return answer(400, failure(PRICE_STATUS.invalid, [{ field: "body", message: NOT_JSON_MESSAGE }]));
    const text = (await c.req.text()).trim();
    if (text === "") return answer(400, failure(PRICE_STATUS.empty, []));
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return answer(400, failure(PRICE_STATUS.invalid, [{ field: "body", message: "the body is not valid JSON" }]));
    }
    if (json === null || (typeof json === "object" && Object.keys(json).length === 0)) return answer(400, failure(PRICE_STATUS.empty, []));
    const parsed = priceCreateSchema.safeParse(json);
    if (!parsed.success) return answer(400, failure(PRICE_STATUS.invalid, issuesToImportErrors(parsed.error)));
    const input = parsed.data;
    if (!ctx.store.hasSkuCode(user.id, input.sku)) {
      return answer(
        404,
        failure(PRICE_STATUS.invalid, [{ field: "sku", message: `no SKU with code ${input.sku} exists for this seller` }]),
      );
    }

    // "A price is not edited: creating a new price for the same SKU updates it" — one record per
    // SKU and type keeps its id; each new price extends priceHistory.
    const now = new Date(ctx.clock.now()).toISOString();
    const prices = ctx.store.sellerPrices(user.id);
    let record = prices.items.find((price) => price.sku === input.sku && price.type === input.type);
    const historyItem = { value: input.value, currency: input.currency, normalizer: input.normalizer, created_at: now };
    const status = record ? "updated" : "created";
    if (record) {
      Object.assign(record, {
        value: input.value,
        currency: input.currency,
        normalizer: input.normalizer,
        extras: input.extras,
        created_at: now,
      });
      record.history.push(historyItem);
    } else {
      record = { id: ctx.newId(ctx.clock.now()), userId: user.id, ...input, created_at: now, history: [historyItem] };
      prices.items.push(record);
      ctx.store.priceById.set(record.id, record);
    }
    prices.version++;
    notifySeller(ctx, user.id, { domain: "portfolio.price", status, id: record.id, code: record.sku });
    const ok = PRICE_STATUS.imported;
    return answer(201, {
      token: randomBytes(12).toString("hex"),
      id: record.id,
      statusCode: ok.statusCode,
      statusMessage: ok.statusMessage,
      errors: [],
      data: toWirePrice(record),
    });
  });

  routes.get(PRICES_PATH, apiGuard(ctx, ["portfolio:read"]), (c) => {
    const { user } = c.get("auth");
    const envelope = listRecords(ctx.store.sellerPrices(user.id), new URL(c.req.url).searchParams, priceListSpec, {
      lenient: ctx.config.lenient,
    });
    return c.json({ ...envelope, results: envelope.results.map(toWirePriceWithHistory) });
  });

  routes.get(`${PRICES_PATH}/:id`, apiGuard(ctx, ["portfolio:read"]), pathParams(z.object({ id: objectIdSchema })), (c) => {
    const { user } = c.get("auth");
    const record = ctx.store.priceById.get(c.req.valid("param").id);
    if (!record || record.userId !== user.id) throw notFound("Price");
    return c.json(toWirePriceWithHistory(record));
  });

  return routes;
}
