// GET /openapi.json, generated from the shared schemas and the routes' own constants (sandbox/README.md,
// "OpenAPI document"). Only the endpoint table is written here; sandbox/testing.ts checks every
// response of the HTTP tests against it, so it cannot drift from the routes.
import { z } from "zod";
import { ENDPOINTS } from "@marketplace/api/client";
import { DEFAULT_LIMIT, DEFAULT_OFFSET, MAX_LIMIT, PAGE_MINIMUM } from "@marketplace/api/list-grammar";
import { currencySchema, objectIdSchema, timestampSchema } from "@marketplace/api/schemas/common";
import {
  appliedFilterSchema,
  appliedSortSchema,
  listEnvelopeSchema,
  listMetaSchema,
  pageLinksSchema,
  pageMetaSchema,
} from "@marketplace/api/schemas/list";
import { basicUserInfoSchema, tokenErrorResponseSchema, tokenRequestSchema, tokenResponseSchema } from "@marketplace/api/schemas/oauth";
import {
  addressSchema,
  customerSchema,
  deliveryItemSchema,
  deliverySchema,
  itemAmountsSchema,
  orderAmountsSchema,
  orderSchema,
  orderStatusSchema,
  paymentSchema,
  phoneSchema,
  shippingSchema,
} from "@marketplace/api/schemas/order";
import {
  PRICE_STATUS,
  priceCreateResponseSchema,
  priceCreateSchema,
  priceHistoryItemSchema,
  priceSchema,
  priceTypeSchema,
  priceWithHistorySchema,
} from "@marketplace/api/schemas/price";
import { SCOPE_CATALOGUE } from "@marketplace/api/schemas/scopes";
import { importErrorSchema, SKU_STATUS, skuCreateSchema, skuImportResponseSchema } from "@marketplace/api/schemas/sku";
import {
  orderWebhookDataSchema,
  resourceWebhookDataSchema,
  WEBHOOK_DOMAINS,
  WEBHOOK_SIGNATURE_HEADER,
  webhookUrlDeleteResponseSchema,
  webhookUrlGetResponseSchema,
  webhookUrlRequestSchema,
  webhookUrlSetResponseSchema,
  type WebhookDomain,
} from "@marketplace/api/schemas/webhook";
import { bodyTooLargeMessage, FORM_BODY_LIMIT_BYTES, JSON_BODY_LIMIT_BYTES } from "./body-limit";
import type { ErrorBody, ErrorCode } from "./errors";
import type { FieldInfo, ListSpec } from "./list-query";
import { AUTHORIZE_PATH, CODE_LIFETIME_MS, TOKEN_PATH } from "./oauth";
import { ORDERS_PATH, orderListSpec } from "./orders";
import { PRICES_PATH, priceListSpec } from "./prices";
import { SKUS_PATH } from "./skus";
import { BASIC_USER_INFO_PATH } from "./user-info";
import { WEBHOOK_URL_PATHS } from "./webhook-url";

export const OPENAPI_PATH = "/openapi.json";

export type JsonObject = { [key: string]: unknown };

export type HttpMethod = "get" | "post" | "delete";

// ---------------------------------------------------------------------------------------------
// The sandbox's own error body (sandbox/errors.ts), as a zod schema so the document can be
// generated from it. The two type checks below fail to compile when errors.ts changes its shape
// or its codes without this file.

/** Every `ErrorCode` of sandbox/errors.ts with the HTTP status it is answered with. */
const ERROR_STATUS = {
  invalid_token: 401,
  insufficient_scope: 403,
  cross_site_request: 403,
  invalid_request: 400,
  invalid_query: 400,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  server_error: 500,
  temporarily_unavailable: 503,
} as const satisfies Record<ErrorCode, number>;

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

const errorDetailSchema = z.object({ field: z.string(), message: z.string() });

function errorBodySchema(code: z.ZodType<ErrorCode>) {
  return z.object({
    error: z.object({
      code,
      message: z.string(),
      details: z.array(errorDetailSchema).optional().describe("One entry per invalid field (`invalid_request`)"),
      parameter: z.string().optional().describe("The query parameter at fault (`invalid_query`)"),
    }),
  });
}

const sandboxErrorBodySchema = errorBodySchema(z.enum(ERROR_CODES));

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const errorBodyMatches: Same<z.infer<typeof sandboxErrorBodySchema>, ErrorBody> = true;
const errorCodesMatch: Same<(typeof ERROR_CODES)[number], ErrorCode> = true;
void errorBodyMatches;
void errorCodesMatch;

// ---------------------------------------------------------------------------------------------
// Components: responses are zod outputs (closed objects: zod strips other keys), request bodies zod
// inputs (defaults optional).

const SCHEMA_REF_PREFIX = "#/components/schemas/";

export function schemaRef(id: string): JsonObject {
  return { $ref: `${SCHEMA_REF_PREFIX}${id}` };
}

interface ComponentMeta {
  id: string;
  description?: string;
}

class SchemaComponents {
  private readonly output = z.registry<ComponentMeta>();
  private readonly input = z.registry<ComponentMeta>();

  /** Names a schema as it is answered; returns a `$ref` to it. */
  response(id: string, schema: z.ZodType, description?: string): JsonObject {
    return this.add(this.output, id, schema, description);
  }

  /** Names a schema as it is sent by a client (request bodies). */
  request(id: string, schema: z.ZodType, description?: string): JsonObject {
    return this.add(this.input, id, schema, description);
  }

  /** Names a schema that reads the same either way (strings, enums). */
  both(id: string, schema: z.ZodType, description?: string): JsonObject {
    this.add(this.input, id, schema, description);
    return this.add(this.output, id, schema, description);
  }

  /** A `$ref` when the schema has a name, else its own JSON Schema (as a client sends it). */
  inline(schema: z.ZodType): JsonObject {
    const meta = this.input.get(schema) ?? this.output.get(schema);
    if (meta) return schemaRef(meta.id);
    return stripSchemaKeys(z.toJSONSchema(schema, { io: "input" }) as JsonObject);
  }

  render(): Record<string, JsonObject> {
    const uri = (id: string) => `${SCHEMA_REF_PREFIX}${id}`;
    const outputs = z.toJSONSchema(this.output, { io: "output", uri, metadata: this.output }).schemas;
    const inputs = z.toJSONSchema(this.input, { io: "input", uri, metadata: this.input }).schemas;
    const schemas: Record<string, JsonObject> = {};
    for (const [id, schema] of [...Object.entries(outputs), ...Object.entries(inputs)]) {
      const clean = stripSchemaKeys(schema as JsonObject);
      const known = schemas[id];
      if (known && JSON.stringify(known) !== JSON.stringify(clean)) {
        throw new Error(`OpenAPI component ${id} differs between requests and responses: name the two forms apart`);
      }
      schemas[id] = clean;
    }
    return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  }

  private add(registry: z.core.$ZodRegistry<ComponentMeta>, id: string, schema: z.ZodType, description?: string): JsonObject {
    const known = registry.get(schema);
    if (known && known.id !== id) throw new Error(`OpenAPI component ${id} is already named ${known.id}`);
    if (!known) registry.add(schema, description === undefined ? { id } : { id, description });
    return schemaRef(id);
  }
}

/**
 * `$schema` belongs to a document, and zod's `$id` (`#/components/schemas/X`) is a fragment,
 * which draft 2020-12 does not allow in `$id`: references find components by their place.
 */
function stripSchemaKeys(schema: JsonObject): JsonObject {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

const pascal = (text: string) =>
  text
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join("");

// ---------------------------------------------------------------------------------------------
// The document

const TAGS = [
  { name: "OAuth", description: "The authorization code flow (spec: Endpoints 1 and 2; Authentication)." },
  { name: "User", description: "Basic user information (spec: Endpoint 3)." },
  { name: "SKUs", description: "Product positions (spec: Endpoint 4). SKUs are immutable: a change is a new SKU." },
  { name: "Prices", description: "Prices (spec: Endpoints 5–7). One price per SKU and type; a new price updates it." },
  { name: "Orders", description: "Orders (spec: Endpoints 8 and 9)." },
  { name: "Webhooks", description: "The callback URL (spec: Endpoint 10); the notifications are under `webhooks`." },
] as const;

type Tag = (typeof TAGS)[number]["name"];

interface Operation {
  path: string;
  method: HttpMethod;
  operationId: string;
  tag: Tag;
  summary: string;
  description?: string;
  /** Scopes a bearer token needs; null for the OAuth endpoints, which take no token. */
  scopes: readonly string[] | null;
  parameters?: JsonObject[];
  requestBody?: JsonObject;
  responses: Record<string, JsonObject>;
}

const json = (schema: JsonObject, description: string, extra: JsonObject = {}): JsonObject => ({
  description,
  content: { "application/json": { schema } },
  ...extra,
});

const html = (description: string): JsonObject => ({ description, content: { "text/html": { schema: { type: "string" } } } });

const header = (description: string, schema: JsonObject = { type: "string" }): JsonObject => ({ description, required: true, schema });

const responseRef = (name: string): JsonObject => ({ $ref: `#/components/responses/${name}` });

export function buildOpenApiDocument(): JsonObject {
  const components = new SchemaComponents();

  // Building blocks, named first so every schema that uses them refers to them.
  components.both("ObjectId", objectIdSchema, "A platform identifier: 24 hexadecimal characters");
  components.both("Timestamp", timestampSchema, "ISO 8601 in UTC");
  components.both("Currency", currencySchema, "ISO-4217 code");
  components.both("OrderStatus", orderStatusSchema);
  components.both("PriceType", priceTypeSchema);
  components.response(
    "ImportError",
    importErrorSchema,
    "One reason of a synchronous validation failure; `field` is a path such as `dimensions[0].height.value`",
  );
  components.response("Phone", phoneSchema);
  components.response("Customer", customerSchema);
  components.response("Payment", paymentSchema);
  components.response("OrderAmounts", orderAmountsSchema);
  components.response("ItemAmounts", itemAmountsSchema);
  components.response("DeliveryItem", deliveryItemSchema);
  components.response("Address", addressSchema);
  components.response(
    "Shipping",
    shippingSchema,
    "Timestamps of what has not happened yet (a parcel not posted or not delivered) are null",
  );
  components.response("Delivery", deliverySchema);
  components.response("Order", orderSchema, "Timestamps of what has not happened yet (`approved_at` of a new order) are null");
  components.response("PageMeta", pageMetaSchema);
  components.response("PageLinks", pageLinksSchema, "Relative links carrying `_offset` and `_limit`; null at the ends");
  components.response("AppliedFilter", appliedFilterSchema);
  components.response("AppliedSort", appliedSortSchema);
  components.response("ListMeta", listMetaSchema);
  components.response("Sku", skuCreateSchema, "The imported SKU, as it was created");
  components.response("Price", priceSchema);
  components.response(
    "PriceHistoryItem",
    priceHistoryItemSchema,
    "Oldest first, the current price included (the spec does not show the fields)",
  );
  components.response("PriceWithHistory", priceWithHistorySchema);

  // Error bodies: one per code, so each status names the code it carries.
  const errorRef = (code: ErrorCode) => components.response(`Error${pascal(code)}`, errorBodySchema(z.literal(code)));
  components.response("Error", sandboxErrorBodySchema, "The sandbox's error body wherever the spec shows none");

  const sharedResponses: Record<string, JsonObject> = {
    Unauthorized: json(errorRef("invalid_token"), "No token, or an unknown, revoked or expired one", {
      headers: { "WWW-Authenticate": header('`Bearer error="invalid_token"`') },
    }),
    Forbidden: json(errorRef("insufficient_scope"), "The token lacks a scope the endpoint requires"),
    RateLimited: json(errorRef("rate_limited"), "Too many requests: the user is blocked for a while (fault `rateLimitPerMinute`)", {
      headers: { "Retry-After": header("Seconds to wait", { type: "string", pattern: "^\\d+$" }) },
    }),
    ServerError: json(errorRef("server_error"), "Unexpected server condition (fault `errorRate`)"),
    Unavailable: json(errorRef("temporarily_unavailable"), "Maintenance (fault `maintenance`)", {
      headers: { "Retry-After": header("Seconds to wait", { type: "string", pattern: "^\\d+$" }) },
    }),
    PayloadTooLarge: json(errorRef("payload_too_large"), bodyTooLargeMessage(JSON_BODY_LIMIT_BYTES)),
    NotFound: json(errorRef("not_found"), "No such resource for this user (another seller's resource included)"),
    InvalidRequest: json(errorRef("invalid_request"), "A body or path parameter is invalid; `details` names each field"),
    InvalidQuery: json(errorRef("invalid_query"), "A list parameter is unknown or malformed; `parameter` names it"),
  };

  /** The failures every call with a bearer token may get (sandbox/auth.ts), in the common shape. */
  const guarded = (scopes: readonly string[]): Record<string, JsonObject> => ({
    "401": responseRef("Unauthorized"),
    ...(scopes.length > 0 ? { "403": responseRef("Forbidden") } : {}),
    "429": responseRef("RateLimited"),
    "500": responseRef("ServerError"),
    "503": responseRef("Unavailable"),
  });

  // SKU import responses, one schema per status code of the spec (Errors → SKU import status codes).
  const skuImported = components.response(
    "SkuImported",
    skuImportResponseSchema.extend({
      id: objectIdSchema,
      sku: z.string(),
      statusCode: z.literal(SKU_STATUS.imported.statusCode),
      statusMessage: z.literal(SKU_STATUS.imported.statusMessage),
      errors: z.array(importErrorSchema).max(0),
      data: skuCreateSchema,
    }),
    "statusCode 0: synchronous validation passed",
  );
  const skuFailure = (key: Exclude<keyof typeof SKU_STATUS, "imported">) =>
    components.response(
      `SkuImport${pascal(key)}`,
      skuImportResponseSchema.extend({
        id: z.null(),
        data: z.null(),
        statusCode: z.literal(SKU_STATUS[key].statusCode),
        statusMessage: z.literal(SKU_STATUS[key].statusMessage),
      }),
      `statusCode ${SKU_STATUS[key].statusCode}: nothing was imported`,
    );

  const priceImported = components.response(
    "PriceImported",
    priceCreateResponseSchema.extend({
      id: objectIdSchema,
      statusCode: z.literal(PRICE_STATUS.imported.statusCode),
      statusMessage: z.literal(PRICE_STATUS.imported.statusMessage),
      errors: z.array(importErrorSchema).max(0),
      data: priceSchema,
    }),
    "statusCode 0: the price was imported and processed",
  );
  const priceFailure = (key: "empty" | "invalid") =>
    components.response(
      `PriceImport${pascal(key)}`,
      priceCreateResponseSchema.extend({
        id: z.null(),
        data: z.null(),
        statusCode: z.literal(PRICE_STATUS[key].statusCode),
        statusMessage: z.literal(PRICE_STATUS[key].statusMessage),
      }),
      `statusCode ${PRICE_STATUS[key].statusCode} (a sandbox choice: the spec shows no price failure)`,
    );

  const idParameter = (what: string): JsonObject => ({
    name: "id",
    in: "path",
    required: true,
    description: `The ${what}'s ObjectId`,
    schema: schemaRef("ObjectId"),
  });

  const list = (spec: ListSpec, named: Record<string, z.ZodType>) => listParameters(spec, named, components);

  const tokenOperations: Operation[] = [
    {
      path: AUTHORIZE_PATH,
      method: "get",
      operationId: "authorize",
      tag: "OAuth",
      summary: "Authorization request (browser)",
      description: [
        "Served at `{auth_url}`: the user's browser is sent here. The sandbox answers a login and consent page (plain HTML).",
        "On approval the browser is redirected to `redirect_uri?code=…&state=…`; the code expires after",
        `${CODE_LIFETIME_MS / 60_000} minutes and is single use. On denial or failure: \`redirect_uri?error=…&error_description=…&state=…\`.`,
        "A missing, unknown or repeated `client_id`, or a `redirect_uri` that is malformed, not registered or omitted while several are registered: HTTP 400, no redirect.",
      ].join(" "),
      scopes: null,
      parameters: authorizationParameters(),
      responses: {
        "200": html("The login and consent page"),
        "302": {
          description:
            "Back to `redirect_uri` with `code` and `state`, or with `error` (one of the spec's authorization errors), `error_description` and `state`",
          headers: { Location: header("`redirect_uri` with the result in its query string", { type: "string", format: "uri" }) },
        },
        "400": html("`client_id` or `redirect_uri` missing or invalid: an error page, no redirect"),
      },
    },
    {
      path: AUTHORIZE_PATH,
      method: "post",
      operationId: "submitConsent",
      tag: "OAuth",
      summary: "The consent page's form (sandbox)",
      description:
        "What the consent page posts, with the authorization request's query string. The platform's own form is not part of the spec; this is how the sandbox's page (and a test without a browser) answers the request.",
      scopes: null,
      parameters: authorizationParameters(),
      requestBody: {
        required: true,
        content: {
          "application/x-www-form-urlencoded": {
            schema: components.request("ConsentForm", consentFormSchema),
            encoding: { scope: { explode: true } },
          },
        },
      },
      responses: {
        "302": {
          description:
            "Back to `redirect_uri` with `code` (approved) or `error=access_denied` (denied, no PRO plan, every scope unchecked), and `state`",
          headers: { Location: header("`redirect_uri` with the result in its query string", { type: "string", format: "uri" }) },
        },
        "400": html("No decision in the form, or `client_id`/`redirect_uri` invalid: the page again with an error"),
        "401": html("Wrong login or password: the page again with an error"),
        "413": html(bodyTooLargeMessage(FORM_BODY_LIMIT_BYTES)),
      },
    },
    {
      path: TOKEN_PATH,
      method: "post",
      operationId: "exchangeCode",
      tag: "OAuth",
      summary: "Token exchange",
      description: [
        "Exchanges an authorization code for an access token. Exactly the five form fields, each once (`scope` is an optional sandbox extension that narrows the grant).",
        "A failed exchange does not consume the code; exchanging a used code again fails and revokes the token issued with it.",
      ].join(" "),
      scopes: null,
      requestBody: {
        required: true,
        content: { "application/x-www-form-urlencoded": { schema: components.request("TokenRequest", tokenFormSchema) } },
      },
      responses: {
        "200": json(components.response("TokenResponse", tokenResponseSchema), "The access token", { headers: tokenHeaders() }),
        "400": json(components.response("TokenError", tokenErrorResponseSchema), "One of the spec's token exchange errors", {
          headers: tokenHeaders(),
        }),
        "413": json(schemaRef("TokenError"), `\`invalid_request\`: ${bodyTooLargeMessage(FORM_BODY_LIMIT_BYTES)}`, {
          headers: tokenHeaders(),
        }),
      },
    },
  ];

  const apiOperations: Operation[] = [
    {
      path: BASIC_USER_INFO_PATH,
      method: "post",
      operationId: "getBasicUserInfo",
      tag: "User",
      summary: "Basic user information",
      description: "No body is required; a JSON body may be sent and is ignored. A body of another type is refused (400).",
      scopes: ENDPOINTS.basicUserInfo.scopes,
      requestBody: { required: false, content: { "application/json": { schema: {} } } },
      responses: {
        "200": json(components.response("BasicUserInfo", basicUserInfoSchema), "The user's name and e-mail address"),
        "400": json(errorRef("invalid_request"), "A body whose Content-Type is not JSON (`details[0].field` is `body`)"),
        "413": responseRef("PayloadTooLarge"),
        ...guarded(ENDPOINTS.basicUserInfo.scopes),
      },
    },
    {
      path: SKUS_PATH,
      method: "post",
      operationId: "createSku",
      tag: "SKUs",
      summary: "Create a SKU",
      description: [
        "Every answer but 401 is the SKU import response; its `statusCode` is one of the spec's. The path takes no query parameter (any → statusCode -4). Creating a SKU sends a `portfolio.sku` notification.",
        "Besides the schema, the spec's rules that JSON Schema cannot say are checked too: `title` must have `pt_BR`, and so must `description` and every attribute `display` that name languages;",
        "`dimensions` must hold a `package` item; a numeric dimension `value` is at most 10 characters written out; an `EAN` identifier has 8, 12, 13 or 14 digits and a valid GS1 check digit.",
      ].join(" "),
      scopes: ENDPOINTS.createSku.scopes,
      requestBody: { required: true, content: { "application/json": { schema: components.request("SkuCreate", skuCreateSchema) } } },
      responses: {
        "200": json(
          skuImported,
          "An identical SKU already exists: nothing was created, its `id` is returned (the spec's automatic redirect)",
        ),
        "201": json(skuImported, "Created"),
        "400": json(
          { oneOf: [skuFailure("empty"), skuFailure("invalid")] },
          "statusCode -3: nothing to import; -4: validation failed, `errors` names each field (`body` for a body whose Content-Type is not JSON)",
        ),
        "401": responseRef("Unauthorized"),
        "403": json(skuFailure("forbidden"), "statusCode -6: the token lacks a required scope"),
        "413": json(schemaRef("SkuImportInvalid"), `statusCode -4: ${bodyTooLargeMessage(JSON_BODY_LIMIT_BYTES)}`),
        "429": json(skuFailure("blocked"), "statusCode -2: the user is blocked for a while", {
          headers: { "Retry-After": header("Seconds to wait", { type: "string", pattern: "^\\d+$" }) },
        }),
        "500": json(skuFailure("unexpected"), "statusCode -1: unexpected error"),
        "503": json(skuFailure("importDown"), "statusCode -5: import is down"),
      },
    },
    {
      path: PRICES_PATH,
      method: "post",
      operationId: "createPrice",
      tag: "Prices",
      summary: "Create a price",
      description:
        "A price for a SKU and type that already has one replaces it (same `id`, appended to `priceHistory`). Sends a `portfolio.price` notification: `created`, then `updated`.",
      scopes: ENDPOINTS.createPrice.scopes,
      requestBody: { required: true, content: { "application/json": { schema: components.request("PriceCreate", priceCreateSchema) } } },
      responses: {
        "201": json(priceImported, "Imported"),
        "400": json(
          { oneOf: [priceFailure("empty"), priceFailure("invalid")] },
          "statusCode -3: empty body; -4: invalid body, `errors` names each field (`body` for a body whose Content-Type is not JSON)",
        ),
        "404": json(
          schemaRef("PriceImportInvalid"),
          "statusCode -4: no SKU with this code exists for the user (`errors[0].field` is `sku`)",
        ),
        "413": json(schemaRef("PriceImportInvalid"), `statusCode -4: ${bodyTooLargeMessage(JSON_BODY_LIMIT_BYTES)}`),
        ...guarded(ENDPOINTS.createPrice.scopes),
      },
    },
    {
      path: PRICES_PATH,
      method: "get",
      operationId: "listPrices",
      tag: "Prices",
      summary: "List prices",
      scopes: ENDPOINTS.listPrices.scopes,
      parameters: list(priceListSpec, { sku: priceSchema.shape.sku, type: priceSchema.shape.type }),
      responses: {
        "200": json(components.response("PriceList", listEnvelopeSchema(priceWithHistorySchema)), "One page of prices"),
        "400": responseRef("InvalidQuery"),
        ...guarded(ENDPOINTS.listPrices.scopes),
      },
    },
    {
      path: `${PRICES_PATH}/{id}`,
      method: "get",
      operationId: "getPrice",
      tag: "Prices",
      summary: "Retrieve a price",
      scopes: ENDPOINTS.getPrice.scopes,
      parameters: [idParameter("price")],
      responses: {
        "200": json(schemaRef("PriceWithHistory"), "The price with its history"),
        "400": responseRef("InvalidRequest"),
        "404": responseRef("NotFound"),
        ...guarded(ENDPOINTS.getPrice.scopes),
      },
    },
    {
      path: ORDERS_PATH,
      method: "get",
      operationId: "listOrders",
      tag: "Orders",
      summary: "List orders",
      description: "Default order: `created_at:desc`.",
      scopes: ENDPOINTS.listOrders.scopes,
      parameters: list(orderListSpec, { status: orderSchema.shape.status, id: orderSchema.shape.id }),
      responses: {
        "200": json(components.response("OrderList", listEnvelopeSchema(orderSchema)), "One page of orders"),
        "400": responseRef("InvalidQuery"),
        ...guarded(ENDPOINTS.listOrders.scopes),
      },
    },
    {
      path: `${ORDERS_PATH}/{id}`,
      method: "get",
      operationId: "getOrder",
      tag: "Orders",
      summary: "Retrieve an order",
      scopes: ENDPOINTS.getOrder.scopes,
      parameters: [idParameter("order")],
      responses: {
        "200": json(schemaRef("Order"), "The order"),
        "400": responseRef("InvalidRequest"),
        "404": responseRef("NotFound"),
        ...guarded(ENDPOINTS.getOrder.scopes),
      },
    },
    ...WEBHOOK_URL_PATHS.flatMap((path, index): Operation[] => {
      // The spec gives both paths; the second one's operations are told apart by their id.
      const suffix = index === 0 ? "" : "AtShortPath";
      const alias = index === 0 ? "" : ` The same resource as \`${WEBHOOK_URL_PATHS[0]}\`.`;
      return [
        {
          path,
          method: "post",
          operationId: `setCallbackUrl${suffix}`,
          tag: "Webhooks",
          summary: "Set the callback URL",
          description: `Creates or overwrites the callback URL. Any valid token; the URL must be an absolute http(s) URL whose address the sandbox may call.${alias}`,
          scopes: ENDPOINTS.setWebhookUrl.scopes,
          requestBody: {
            required: true,
            content: { "application/json": { schema: components.request("CallbackUrlRequest", webhookUrlRequestSchema) } },
          },
          responses: {
            "200": json(components.response("CallbackUrlSet", webhookUrlSetResponseSchema), "Saved"),
            "400": responseRef("InvalidRequest"),
            "413": responseRef("PayloadTooLarge"),
            ...guarded(ENDPOINTS.setWebhookUrl.scopes),
          },
        },
        {
          path,
          method: "get",
          operationId: `getCallbackUrl${suffix}`,
          tag: "Webhooks",
          summary: "Read the callback URL",
          description: `\`url\` is null when none is set (a sandbox choice).${alias}`,
          scopes: ENDPOINTS.getWebhookUrl.scopes,
          responses: {
            "200": json(components.response("CallbackUrl", webhookUrlGetResponseSchema), "The configured URL"),
            ...guarded(ENDPOINTS.getWebhookUrl.scopes),
          },
        },
        {
          path,
          method: "delete",
          operationId: `deleteCallbackUrl${suffix}`,
          tag: "Webhooks",
          summary: "Remove the callback URL",
          ...(alias ? { description: alias.trim() } : {}),
          scopes: ENDPOINTS.deleteWebhookUrl.scopes,
          responses: {
            "200": json(components.response("CallbackUrlDeleted", webhookUrlDeleteResponseSchema), "Removed (or there was none)"),
            ...guarded(ENDPOINTS.deleteWebhookUrl.scopes),
          },
        },
      ];
    }),
  ];

  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const operation of [...tokenOperations, ...apiOperations]) {
    const item = (paths[operation.path] ??= {});
    item[operation.method] = renderOperation(operation);
  }

  const webhooks = notificationWebhooks(components);

  return {
    openapi: "3.1.1",
    info: {
      title: "Marketplace integration API (sandbox)",
      version: "1.0",
      summary: "The platform's integrator API as the local sandbox implements it",
      description: [
        // What a reader of /docs sees first: no repository paths, which mean nothing to them.
        "Generated by the sandbox from the platform contract's own wire schemas; the sandbox's tests check every answer it gives against this document.",
        "",
        "On the platform, the authorization request is served at `{auth_url}` and everything else at `{base_url}`; the sandbox serves both on one origin.",
        "Get a token with the authorization code flow (the `OAuth` operations below), then send it as `Authorization: Bearer <ACCESS_TOKEN>`.",
        `The notifications the platform sends to your callback URL are under **Webhooks**, each signed in the \`${WEBHOOK_SIGNATURE_HEADER}\` header.`,
        "",
        'Where the spec shows no error body, the sandbox answers `{"error": {"code", "message", "details"?, "parameter"?}}`; the token endpoint keeps the OAuth shape and SKU and price creation answer their import response with a `statusCode`.',
      ].join("\n"),
    },
    servers: [{ url: "/", description: "This sandbox ({auth_url} and {base_url} alike)" }],
    tags: TAGS,
    paths,
    webhooks,
    components: {
      schemas: components.render(),
      responses: sharedResponses,
      securitySchemes: {
        // The notifications' signature (spec: Events → Signature), declared as what it is on the
        // wire: a key in a header. It is not a static key: the receiver recomputes it per message.
        webhookSignature: {
          type: "apiKey",
          in: "header",
          name: WEBHOOK_SIGNATURE_HEADER,
          description: [
            `Every notification carries \`${WEBHOOK_SIGNATURE_HEADER}\`: Base64 of the HMAC-SHA256 of the raw request body (the exact bytes, before any JSON parsing), keyed with the access token the user granted the integrator.`,
            "The receiver computes the same HMAC over the bytes it received and compares the two in constant time; a notification whose signature does not match is not from the platform.",
          ].join(" "),
        },
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: [
            "An access token from the token exchange. Each operation lists the scopes the token needs; the scopes are:",
            "",
            ...SCOPE_CATALOGUE.map((entry) => `- \`${entry.scope}\`: ${entry.permits}`),
          ].join("\n"),
        },
      },
    },
  };
}

function renderOperation(operation: Operation): JsonObject {
  const { scopes } = operation;
  const scopeNote =
    scopes === null
      ? ""
      : scopes.length === 0
        ? "Any valid access token; no scope is required."
        : `Scopes: ${scopes.map((scope) => `\`${scope}\``).join(" and ")}.`;
  const description = [operation.description, scopeNote].filter(Boolean).join("\n\n");
  return {
    tags: [operation.tag],
    summary: operation.summary,
    ...(description ? { description } : {}),
    operationId: operation.operationId,
    // OpenAPI 3.1 lets a bearer requirement list the roles it needs: here, the scopes.
    security: scopes === null ? [] : [{ bearerAuth: [...scopes] }],
    ...(operation.parameters ? { parameters: operation.parameters } : {}),
    ...(operation.requestBody ? { requestBody: operation.requestBody } : {}),
    responses: operation.responses,
  };
}

// ---------------------------------------------------------------------------------------------
// Forms the spec gives in words (Endpoints 1 and 2), written with the shared schemas where they exist

/** Endpoint 2's five fields, plus the sandbox's optional `scope` (README: Token exchange errors). */
const tokenFormSchema = tokenRequestSchema.extend({
  grant_type: z.literal("authorization_code"),
  scope: z.string().optional().describe("Sandbox extension: narrows the token to part of the grant (space separated)"),
});

/** The sandbox consent page's fields (sandbox/oauth.ts). */
const consentFormSchema = z.object({
  login: z.string().describe("The user's e-mail address"),
  password: z.string(),
  scope: z.array(z.string()).describe("The scopes left checked; unchecked ones are not granted"),
  decision: z.enum(["approve", "deny"]),
});

function authorizationParameters(): JsonObject[] {
  const query = (name: string, required: boolean, description: string, schema: JsonObject = { type: "string" }): JsonObject => ({
    name,
    in: "query",
    required,
    description,
    schema,
  });
  return [
    query("response_type", true, "Must be `code`", { type: "string", enum: ["code"] }),
    query("client_id", true, "The identifier issued at application registration"),
    query("redirect_uri", false, "Required when the application registered several URIs; must equal one of them", {
      type: "string",
      format: "uri",
    }),
    query("scope", true, "Space-separated scope values, case sensitive, order irrelevant", {
      type: "string",
      examples: ["basic_user_info portfolio:write portfolio:read order-order:read"],
    }),
    query("state", false, "Any value; returned unchanged"),
  ];
}

function tokenHeaders(): JsonObject {
  return {
    "Cache-Control": header("`no-store`"),
    Pragma: header("`no-cache`"),
  };
}

// ---------------------------------------------------------------------------------------------
// List parameters (spec: Generic list rules; Endpoints 7 and 9), from the list's field catalogue

const GENERIC_OPERATORS = ["like", "in", "gt", "gte", "lt", "lte"] as const;

function fieldSchema(field: FieldInfo): JsonObject {
  switch (field.kind) {
    case "enum":
      return { type: "string", enum: [...(field.enumValues ?? [])] };
    case "datetime":
      return { type: "string", description: "ISO 8601 datetime (or a date, read as its midnight UTC)", examples: ["2026-06-01T00:00:00Z"] };
    case "date":
      return { type: "string", format: "date" };
    case "number":
      return { type: "number" };
    case "boolean":
      return { type: "boolean" };
    default:
      return { type: "string" };
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function listParameters(spec: ListSpec, named: Record<string, z.ZodType>, components: SchemaComponents): JsonObject[] {
  const query = (name: string, description: string, schema: JsonObject): JsonObject => ({
    name,
    in: "query",
    required: false,
    description,
    schema,
  });
  const criteria = spec.rules?.sortCriteria;
  const criterion = criteria ? `(${criteria.map(escapeRegExp).join("|")})` : "[a-z0-9_.]+(:(asc|desc))?";
  const defaultSort = spec.defaultSort.map((entry) => `${entry.field}:${entry.direction}`).join(",");
  const fields = [...spec.fields.values()];
  const parameters: JsonObject[] = [
    ...Object.entries(named).map(([name, schema]) => query(name, "Exact match", components.inline(schema))),
    ...(spec.rules?.geLeFields ?? []).flatMap((name) => {
      const field = spec.fields.get(name);
      if (!field) throw new Error(`List ${spec.path}: no field ${name}`);
      return [
        query(`${name}__ge`, `Records whose \`${name}\` is at or after this instant`, fieldSchema(field)),
        query(`${name}__le`, `Records whose \`${name}\` is at or before this instant`, fieldSchema(field)),
      ];
    }),
    query("_limit", `Page size. Larger values than ${MAX_LIMIT} are reduced to it; \`meta.page.limit\` reports the one used.`, {
      type: "integer",
      minimum: PAGE_MINIMUM._limit,
      default: DEFAULT_LIMIT,
    }),
    query("_offset", "Zero-based position of the first record returned", {
      type: "integer",
      minimum: PAGE_MINIMUM._offset,
      default: DEFAULT_OFFSET,
    }),
    query(
      "_sort",
      criteria
        ? `Comma-separated criteria, applied left to right, each one of: ${criteria.map((value) => `\`${value}\``).join(", ")}. Default \`${defaultSort}\`.`
        : `Comma-separated \`field[:asc|:desc]\` criteria, applied left to right. Default \`${defaultSort}\`.`,
      { type: "string", pattern: `^${criterion}(,${criterion})*$`, examples: [criteria?.[criteria.length - 1] ?? defaultSort] },
    ),
    {
      name: "filters",
      in: "query",
      required: false,
      style: "form",
      explode: true,
      description: [
        "Any other filter of the generic list rules, one query parameter each, combined with AND:",
        "`field=value` (exact), `field__like=text` (partial, ignoring case and accents), `field__in=v1,v2`,",
        "`field__gt`, `__gte`, `__lt`, `__lte`. A path through an array matches when any element does.",
        `Fields: ${fields.map((field) => `\`${field.path}\``).join(", ")}.`,
      ].join(" "),
      schema: {
        type: "object",
        default: {},
        propertyNames: {
          pattern: `^(${fields.map((field) => escapeRegExp(field.path)).join("|")})(__(${GENERIC_OPERATORS.join("|")}))?$`,
        },
        additionalProperties: { type: "string" },
      },
    },
  ];
  return parameters;
}

// ---------------------------------------------------------------------------------------------
// Notifications (spec: Events), one webhook per domain of the spec's table

function notificationWebhooks(components: SchemaComponents): Record<string, JsonObject> {
  const webhooks: Record<string, JsonObject> = {};
  for (const [domain, statuses] of Object.entries(WEBHOOK_DOMAINS) as [WebhookDomain, readonly [string, ...string[]]][]) {
    // Order messages carry `order_id` (and `delivery_id`); the others `id` and `code`.
    const base = domain.startsWith("order.") ? orderWebhookDataSchema : resourceWebhookDataSchema;
    const data = base.extend({ domain: z.literal(domain), status: z.enum(statuses) });
    const body = components.response(`${pascal(domain)}Notification`, z.object({ data }));
    webhooks[domain] = {
      post: {
        summary: `${domain}: ${statuses.join(", ")}`,
        description: [
          "POSTed to the callback URL. Verify the signature over the exact body bytes before trusting it;",
          "answer 2xx quickly (preferably under 5 seconds) and handle duplicates idempotently.",
        ].join(" "),
        operationId: `notify${pascal(domain)}`,
        security: [{ webhookSignature: [] }],
        parameters: [
          {
            name: WEBHOOK_SIGNATURE_HEADER,
            in: "header",
            required: true,
            description: "Base64 of the HMAC-SHA256 of the body, keyed with the integrator's access token",
            schema: { type: "string", contentEncoding: "base64" },
          },
        ],
        requestBody: { required: true, content: { "application/json": { schema: body } } },
        responses: { "2XX": { description: "Received. Anything else (or no answer in time) is retried." } },
      },
    };
  }
  return webhooks;
}
