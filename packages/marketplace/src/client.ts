// The only code that knows the platform's paths, headers and wire format (spec: Endpoints); every
// response is parsed with zod before use.
import { z } from "zod";
import { describeZodFailure, kindForStatus, MarketplaceError, parseRetryAfter } from "./errors";
import { parseListResponse } from "./list-response";
import { basicUserInfoSchema } from "./schemas/oauth";
import { orderSchema, orderSummarySchema } from "./schemas/order";
import { priceCreateResponseSchema, priceSchema, priceWithHistorySchema } from "./schemas/price";
import type { PriceCreate, PriceCreateResponse } from "./schemas/price";
import { skuImportResponseSchema } from "./schemas/sku";
import type { SkuCreate, SkuImportResponse } from "./schemas/sku";
import { webhookUrlDeleteResponseSchema, webhookUrlGetResponseSchema, webhookUrlSetResponseSchema } from "./schemas/webhook";

export interface MarketplaceClientOptions {
  baseUrl: string;
  accessToken: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** For the caller's metrics, once the answer's headers arrive or it failed. Must not throw. */
  onResponse?: (observation: PlatformResponseObservation) => void;
}

export interface PlatformResponseObservation {
  endpoint: EndpointName;
  status: number | "timeout" | "network";
  durationMs: number;
}

interface Endpoint {
  method: "GET" | "POST" | "DELETE";
  path: string;
  /** Reported back on a 403. */
  scopes: readonly string[];
}

export const ENDPOINTS = {
  basicUserInfo: { method: "POST", path: "/v1.0/integradores/basic_user_info", scopes: ["basic_user_info"] },
  getWebhookUrl: { method: "GET", path: "/v1.0/marketplace/webhooks/url", scopes: [] },
  setWebhookUrl: { method: "POST", path: "/v1.0/marketplace/webhooks/url", scopes: [] },
  deleteWebhookUrl: { method: "DELETE", path: "/v1.0/marketplace/webhooks/url", scopes: [] },
  createSku: { method: "POST", path: "/v1.0/marketplace/portfolios/skus", scopes: ["portfolio:write", "portfolio:read"] },
  createPrice: { method: "POST", path: "/v1.0/marketplace/portfolios/prices", scopes: ["portfolio:write"] },
  getPrice: { method: "GET", path: "/v1.0/marketplace/portfolios/prices", scopes: ["portfolio:read"] },
  listPrices: { method: "GET", path: "/v1.0/marketplace/portfolios/prices", scopes: ["portfolio:read"] },
  listOrders: { method: "GET", path: "/v1.0/marketplace/orders", scopes: ["order-order:read"] },
  getOrder: { method: "GET", path: "/v1.0/marketplace/orders", scopes: ["order-order:read"] },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

export function requiredScopesFor(endpoint: EndpointName): readonly string[] {
  return ENDPOINTS[endpoint].scopes;
}

const errorBodySchema = z
  .object({
    error: z.union([z.string(), z.object({ code: z.string().optional(), message: z.string().optional() })]).optional(),
    message: z.string().optional(),
  })
  .loose();

async function readErrorBody(response: Response): Promise<{ code?: string; message?: string }> {
  const text = await response.text().catch(() => "");
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    if (!parsed.success) return {};
    const { error, message } = parsed.data;
    if (typeof error === "string") return { code: error, message };
    return { code: error?.code, message: error?.message ?? message };
  } catch {
    return {};
  }
}

export function createMarketplaceClient(options: MarketplaceClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;

  /**
   * Throws a MarketplaceError unless 2xx. With `importBody`, a failure whose body is an import
   * response (SKU and price create explain 400, 429, 5xx with a statusCode) is answered too.
   */
  async function send(
    name: EndpointName,
    init: { query?: URLSearchParams; body?: unknown; path?: string; importBody?: z.ZodType } = {},
  ): Promise<{ status: number; json: unknown; retryAfterMs?: number }> {
    const endpoint: Endpoint = ENDPOINTS[name];
    const url = new URL(init.path ?? endpoint.path, options.baseUrl);
    if (init.query) url.search = init.query.toString();

    const attempt = async () => {
      const started = performance.now();
      const observe = (status: PlatformResponseObservation["status"]) => {
        try {
          options.onResponse?.({ endpoint: name, status, durationMs: performance.now() - started });
        } catch {
          // An observer's failure is not the platform's.
        }
      };
      try {
        const response = await doFetch(url, {
          method: endpoint.method,
          headers: {
            authorization: `Bearer ${options.accessToken}`,
            accept: "application/json",
            ...(init.body === undefined ? {} : { "content-type": "application/json;charset=UTF-8" }),
          },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          signal: AbortSignal.timeout(timeoutMs),
          cache: "no-store",
        });
        observe(response.status);
        return response;
      } catch (error) {
        observe(error instanceof Error && error.name === "TimeoutError" ? "timeout" : "network");
        throw error;
      }
    };
    let response: Response;
    try {
      response = await attempt().catch((error: unknown) => {
        // A GET whose connection failed before any answer (a kept-alive socket just closed) is
        // sent once more: it changes nothing. A timeout is not.
        if (endpoint.method !== "GET" || (error instanceof Error && error.name === "TimeoutError")) throw error;
        return attempt();
      });
    } catch (cause) {
      throw new MarketplaceError("unavailable", "The marketplace could not be reached", { cause });
    }

    const retryAfterMs = response.status === 429 ? parseRetryAfter(response.headers.get("retry-after")) : undefined;
    if (!response.ok && init.importBody && response.status !== 401 && response.status !== 403) {
      const json: unknown = await response.json().catch(() => null);
      if (init.importBody.safeParse(json).success) return { status: response.status, json, retryAfterMs };
      throw new MarketplaceError(kindForStatus(response.status), `The marketplace answered HTTP ${response.status}`, {
        status: response.status,
        retryAfterMs,
      });
    }
    if (!response.ok) {
      const { code, message } = await readErrorBody(response);
      const kind = kindForStatus(response.status);
      throw new MarketplaceError(kind, message ?? `The marketplace answered HTTP ${response.status}`, {
        status: response.status,
        code,
        retryAfterMs,
        requiredScopes: kind === "forbidden" ? endpoint.scopes : [],
      });
    }

    try {
      return { status: response.status, json: await response.json() };
    } catch (cause) {
      throw new MarketplaceError("invalid_response", "The marketplace answered with a body that is not JSON", {
        status: response.status,
        cause,
      });
    }
  }

  async function request(name: EndpointName, init: Parameters<typeof send>[1] = {}): Promise<unknown> {
    return (await send(name, init)).json;
  }

  async function call<S extends z.ZodType>(name: EndpointName, schema: S, init: Parameters<typeof send>[1] = {}): Promise<z.infer<S>> {
    return parseAnswer(schema, await request(name, init));
  }

  function parseAnswer<S extends z.ZodType>(schema: S, json: unknown): z.infer<S> {
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new MarketplaceError(
        "invalid_response",
        `The marketplace answered in an unexpected shape (${describeZodFailure(parsed.error)})`,
        { cause: parsed.error },
      );
    }
    return parsed.data;
  }

  return {
    /** Endpoint 3. */
    getBasicUserInfo: () => call("basicUserInfo", basicUserInfoSchema, { body: {} }),
    /** Endpoint 4. Failures the platform explains (-1 to -5) are answered; a 401 or 403 (-6) throws. */
    createSku: async (sku: SkuCreate): Promise<SkuImportResult> => {
      const { status, json } = await send("createSku", { body: sku, importBody: skuImportResponseSchema });
      // Spec 4: 200 means "the product was not updated": it already existed.
      return { ...parseAnswer(skuImportResponseSchema, json), httpStatus: status };
    },
    /** Endpoint 5; explained failures are answered as for SKUs, with a 429's wait. */
    createPrice: async (price: PriceCreate): Promise<PriceCreateResult> => {
      const { json, retryAfterMs } = await send("createPrice", { body: price, importBody: priceCreateResponseSchema });
      const response = parseAnswer(priceCreateResponseSchema, json);
      return retryAfterMs === undefined ? response : { ...response, retryAfterMs };
    },
    /** Endpoint 6. */
    getPrice: (id: string) => call("getPrice", priceWithHistorySchema, { path: `${ENDPOINTS.getPrice.path}/${encodeURIComponent(id)}` }),
    /** Endpoint 7. Build `query` with `pricesQuery`. */
    listPrices: async (query: URLSearchParams = new URLSearchParams()) =>
      parseListResponse(await request("listPrices", { query }), priceSchema),
    /** Endpoint 9. Build `query` with `ordersQuery`. */
    listOrders: async (query: URLSearchParams = new URLSearchParams()) =>
      parseListResponse(await request("listOrders", { query }), orderSchema),
    /** Endpoint 9, reading only what the order mirror keeps of each order (orderSummarySchema). */
    listOrderSummaries: async (query: URLSearchParams = new URLSearchParams()) =>
      parseListResponse(await request("listOrders", { query }), orderSummarySchema),
    /** Endpoint 8. */
    getOrder: (id: string) => call("getOrder", orderSchema, { path: `${ENDPOINTS.getOrder.path}/${encodeURIComponent(id)}` }),
    /** Endpoint 8, reading only what the order mirror keeps. */
    getOrderSummary: (id: string) => call("getOrder", orderSummarySchema, { path: `${ENDPOINTS.getOrder.path}/${encodeURIComponent(id)}` }),
    /** Endpoint 10, GET (null when none). */
    getWebhookUrl: () => call("getWebhookUrl", webhookUrlGetResponseSchema),
    /** Endpoint 10, POST: creates or overwrites. */
    setWebhookUrl: (url: string) => call("setWebhookUrl", webhookUrlSetResponseSchema, { body: { url } }),
    /** Endpoint 10, DELETE. */
    deleteWebhookUrl: () => call("deleteWebhookUrl", webhookUrlDeleteResponseSchema),
  };
}

export type MarketplaceClient = ReturnType<typeof createMarketplaceClient>;

export type PriceCreateResult = PriceCreateResponse & { retryAfterMs?: number };

/** `httpStatus` 200: the SKU already existed. */
export type SkuImportResult = SkuImportResponse & { httpStatus: number };
