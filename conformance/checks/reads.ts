// Single reads and the reads that are not lists (spec: Endpoints 3, 6, 8, 10; Resources).
import { z } from "zod";
import { ENDPOINTS } from "@marketplace/api/client";
import { describeZodFailure } from "@marketplace/api/errors";
import { basicUserInfoSchema } from "@marketplace/api/schemas/oauth";
import { orderSchema } from "@marketplace/api/schemas/order";
import { priceSchema } from "@marketplace/api/schemas/price";
import { webhookUrlGetResponseSchema } from "@marketplace/api/schemas/webhook";
import { requireAccess } from "../access";
import { describeExchange, requestLine, type Exchange } from "../http";
import { ensure, fail, prerequisite, skip, type Check, type Kit } from "../kit";
import { ORDER_LIST, PRICE_LIST } from "../list-endpoints";
import { recordId } from "../records";
import { sampleOf } from "./lists";

/**
 * "on reads `priceHistory` (array). Fields of a `priceHistory` item: not shown" (Resources →
 * Price): the kit requires the array and nothing of its items. (The shared priceHistoryItemSchema
 * describes the sandbox's items, a sandbox choice.)
 */
export const priceReadSchema = priceSchema.extend({ priceHistory: z.array(z.unknown()) });

/** Endpoint 10's second address: "examples also use the shorter path `/v1.0/webhooks`; both forms are given". */
export const SHORT_WEBHOOK_URL_PATH = "/v1.0/webhooks";

function parsed<S extends z.ZodType>(schema: S, exchange: Exchange, what: string): z.infer<S> {
  const result = schema.safeParse(exchange.json);
  if (!result.success) fail(`${requestLine(exchange)} answered ${what} without the spec's shape: ${describeZodFailure(result.error)}`);
  return result.data;
}

export interface CallbackReading {
  url: string | null;
  exchange: Exchange;
}

function readCallback(exchange: Exchange): CallbackReading {
  // "Returns the configured URL"; the spec shows no answer for an account without one. A 404
  // or an empty string is read as "none" (the sandbox answers {"url": null}).
  if (exchange.status === 404) return { url: null, exchange };
  ensure(exchange.status === 200, describeExchange(exchange));
  const { url } = parsed(webhookUrlGetResponseSchema, exchange, "the callback URL");
  return { url: url === "" ? null : url, exchange };
}

/** The callback URL configured before the run (what the webhook round trip restores), read once. */
export function callbackBeforeRun(kit: Kit): Promise<CallbackReading> {
  return kit.once("callback-before-run", async () => readCallback(await kit.api({ path: ENDPOINTS.getWebhookUrl.path })));
}

export async function readCallbackNow(kit: Kit): Promise<CallbackReading> {
  return readCallback(await kit.api({ path: ENDPOINTS.getWebhookUrl.path }));
}

/** Basic user info and the callback URL: reads of the account, before the lists. */
export const accountChecks: readonly Check[] = [
  {
    name: "user.basic-info",
    run: async (kit) => {
      const exchange = await requireAccess(kit, "user");
      ensure(exchange.status === 200, describeExchange(exchange));
      parsed(basicUserInfoSchema, exchange, "basic user info");
      return "answered {user_name, user_email}";
    },
  },
  {
    name: "webhook-url.get",
    run: async (kit) => {
      const { url, exchange } = await callbackBeforeRun(kit);
      if (exchange.status === 404) return "answered 404: no callback URL configured (the spec shows GET only with one set)";
      return url === null ? "answered {url} with no URL configured" : "answered {url} with the configured URL";
    },
  },
  {
    name: "webhook-url.short-path",
    run: async (kit) => {
      const main = await prerequisite("webhook-url.get", () => callbackBeforeRun(kit));
      const short = readCallback(await kit.api({ path: SHORT_WEBHOOK_URL_PATH }));
      ensure(
        short.url === main.url && short.exchange.status === main.exchange.status,
        `${requestLine(short.exchange)} answered ${short.exchange.status} ${String(short.url)}; ${requestLine(main.exchange)} answered ${main.exchange.status} ${String(main.url)}`,
      );
      return `${SHORT_WEBHOOK_URL_PATH} answers as ${ENDPOINTS.getWebhookUrl.path}`;
    },
  },
];

export const priceReadChecks: readonly Check[] = [
  {
    name: "prices.list.price-history",
    run: async (kit) => {
      const { results } = await sampleOf(kit, PRICE_LIST);
      if (results.length === 0) skip("no prices on the account to check");
      const history = z.object({ results: z.array(z.object({ priceHistory: z.array(z.unknown()) })) }).safeParse({ results });
      if (!history.success)
        fail(
          `prices of the list carry no priceHistory array, which the spec gives prices "on reads" (Resources → Price): ${describeZodFailure(history.error)}`,
        );
      return `${results.length} prices carry priceHistory`;
    },
  },
  {
    name: "prices.get",
    run: async (kit) => {
      const [first] = (await sampleOf(kit, PRICE_LIST)).results;
      if (!first) skip("no prices on the account to read");
      const exchange = await kit.api({ path: `${ENDPOINTS.getPrice.path}/${encodeURIComponent(recordId(first))}` });
      ensure(exchange.status === 200, describeExchange(exchange));
      const price = parsed(priceReadSchema, exchange, "a price");
      ensure(
        price.id === first.id && price.sku === first.sku && price.type === first.type,
        `${requestLine(exchange)} answered price ${price.id} (${price.sku}, ${price.type}); the list gave ${recordId(first)} (${String(first.sku)}, ${String(first.type)})`,
      );
      return `answered the listed price with priceHistory (${price.priceHistory.length} entries)`;
    },
  },
];

export const orderReadChecks: readonly Check[] = [
  {
    name: "orders.get",
    run: async (kit) => {
      const [first] = (await sampleOf(kit, ORDER_LIST)).results;
      if (!first) skip("no orders on the account to read");
      const exchange = await kit.api({ path: `${ENDPOINTS.getOrder.path}/${encodeURIComponent(recordId(first))}` });
      ensure(exchange.status === 200, describeExchange(exchange));
      const order = parsed(orderSchema, exchange, "an order");
      ensure(order.id === first.id, `${requestLine(exchange)} answered order ${order.id}`);
      return "answered the listed order with every field of the spec";
    },
  },
  {
    name: "orders.timestamps",
    run: async (kit) => {
      const { results } = await sampleOf(kit, ORDER_LIST);
      if (results.length === 0) skip("no orders on the account to check");
      // Resources → Order: "ISO 8601 with milliseconds"; General conventions: "in UTC".
      const form = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|\+00:00)$/;
      for (const [index, order] of results.entries()) {
        for (const field of ["created_at", "approved_at", "purchased_at", "updated_at"]) {
          const value = order[field];
          if (field === "approved_at" && value === null) continue;
          ensure(
            typeof value === "string" && form.test(value),
            `results[${index}].${field} is ${JSON.stringify(value)}: the spec gives ISO 8601 in UTC with milliseconds`,
          );
        }
      }
      return `created_at, approved_at, purchased_at and updated_at of ${results.length} orders are UTC with milliseconds`;
    },
  },
];
