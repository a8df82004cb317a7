// Golden tests: what the spec shows of each message (spec-examples.fixtures.ts, section by
// section) read with the shared schemas of schemas/ and the list grammar, the way the dashboard
// and the sandbox read them. An example that does not parse is a finding about our reading of the
// spec: it is pinned under "findings" with the exact refusal, never bent to pass.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { formatIssuePath } from "./schemas/field-path";
import { parseListQuery, parseSort, readFilterName } from "./list-grammar";
import { ordersQuery, parseListLink, pricesQuery } from "./list-query";
import { parseListResponse } from "./list-response";
import { listEnvelopeSchema, listOperatorSchema } from "./schemas/list";
import { authorizationErrorCodeSchema, basicUserInfoSchema, tokenErrorResponseSchema, tokenResponseSchema } from "./schemas/oauth";
import { orderSchema, orderSortSchema, orderSummarySchema } from "./schemas/order";
import { priceCreateResponseSchema, priceCreateSchema, priceSchema, priceWithHistorySchema } from "./schemas/price";
import { scopeSchema } from "./schemas/scopes";
import { SKU_STATUS, skuCreateSchema, skuImportResponseSchema, skuStatusCodeSchema } from "./schemas/sku";
import {
  WEBHOOK_DOMAINS,
  webhookMessageSchema,
  webhookUrlDeleteResponseSchema,
  webhookUrlGetResponseSchema,
  webhookUrlRequestSchema,
  webhookUrlSetResponseSchema,
} from "./schemas/webhook";
import * as spec from "./spec-examples.fixtures";

/** The refusals of `schema` for `value` as `path: message` lines; [] when it parses. */
function refusals(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`);
}

describe("spec examples parse with the shared schemas", () => {
  it.each<[string, z.ZodType, unknown]>([
    ["Access token response", tokenResponseSchema, spec.tokenResponse],
    ["basic_user_info result", basicUserInfoSchema, spec.basicUserInfo],
    ["SKU create body, required fields only", skuCreateSchema, spec.skuCreateMinimal],
    ["SKU create body, every field", skuCreateSchema, spec.skuCreateFull],
    ["SKU import response", skuImportResponseSchema, spec.skuImportResponse],
    ["Price create body", priceCreateSchema, spec.priceCreateBody],
    ["Price", priceSchema, spec.price],
    ["Price create response", priceCreateResponseSchema, spec.priceCreateResponse],
    ["6. Retrieve a price", priceWithHistorySchema, spec.priceWithHistory],
    ["7. List prices", listEnvelopeSchema(priceSchema), spec.priceListResponse],
    ["Order", orderSchema, spec.order],
    ["Order, as the order mirror reads it", orderSummarySchema, spec.order],
    ["9. List orders", listEnvelopeSchema(orderSchema), spec.orderListResponse],
    ["List envelope with applied filters, sort and total", listEnvelopeSchema(orderSchema), spec.listResponseWithAppliedQuery],
    ["Webhook message, reference structure", webhookMessageSchema, spec.webhookReferenceMessage],
    ["Webhook message, domain order", webhookMessageSchema, spec.webhookOrderDomainMessage],
    ["Webhook message, common fields", webhookMessageSchema, spec.webhookCommonFieldsMessage],
    ["10. Webhook URL, POST body", webhookUrlRequestSchema, spec.webhookUrl.setBody],
    ["10. Webhook URL, POST response", webhookUrlSetResponseSchema, spec.webhookUrl.setResponse],
    ["10. Webhook URL, GET response", webhookUrlGetResponseSchema, spec.webhookUrl.getResponse],
    ["10. Webhook URL, DELETE response", webhookUrlDeleteResponseSchema, spec.webhookUrl.deleteResponse],
  ])("%s", (_section, schema, example) => {
    expect(refusals(schema, example)).toEqual([]);
  });

  it.each(spec.tokenErrorResponses)("token exchange error %j", (body) => {
    expect(refusals(tokenErrorResponseSchema, body)).toEqual([]);
  });

  it("every authorization request error and every scope of the spec's tables", () => {
    expect(spec.authorizationErrors.flatMap((error) => refusals(authorizationErrorCodeSchema, error))).toEqual([]);
    expect(spec.scopes.flatMap((scope) => refusals(scopeSchema, scope))).toEqual([]);
    expect(scopeSchema.options).toEqual(spec.scopes);
  });

  it("every SKU import status code with the spec's message", () => {
    expect(spec.skuStatusCodes.flatMap(({ statusCode }) => refusals(skuStatusCodeSchema, statusCode))).toEqual([]);
    expect(Object.values(SKU_STATUS)).toEqual(spec.skuStatusCodes);
  });

  it("every domain and status of the webhook table, in the form its domain uses", () => {
    expect(Object.fromEntries(Object.entries(WEBHOOK_DOMAINS).map(([domain, statuses]) => [domain, [...statuses].sort()]))).toEqual(
      Object.fromEntries(Object.entries(spec.webhookDomains).map(([domain, statuses]) => [domain, [...statuses].sort()])),
    );
    for (const [domain, statuses] of Object.entries(spec.webhookDomains)) {
      for (const status of statuses) {
        const data = domain.startsWith("order.")
          ? { domain, status, order_id: spec.order.id }
          : { domain, status, id: "65f1a2b3c4d5e6f708192a3e", code: "CAM-001" };
        expect(refusals(webhookMessageSchema, { data })).toEqual([]);
      }
    }
  });

  it("the list responses read into pages the way the dashboard reads them", () => {
    expect(parseListResponse(spec.priceListResponse, priceSchema)).toMatchObject({
      limit: 50,
      offset: 0,
      count: 1,
      maxLimit: 50,
      previous: null,
      next: null,
    });
    expect(parseListResponse(spec.orderListResponse, orderSchema)).toMatchObject({
      limit: 1,
      offset: 1,
      previous: { offset: 0, limit: 1 },
      next: { offset: 2, limit: 1 },
    });
    expect(listOperatorSchema.options).toEqual(["eq", "like", "in", "gt", "gte", "lt", "lte"]);
  });
});

describe("spec list queries read with the list grammar", () => {
  it.each(spec.filterForms)("$query", ({ query, field, operator, value }) => {
    const [name = ""] = new URLSearchParams(query).keys();
    expect(readFilterName(name)).toEqual({ field, operator });
    expect(parseListQuery(new URLSearchParams(query))).toEqual({ filters: [{ field, op: operator, value }] });
  });

  it.each(spec.sortForms)("_sort=$sort", ({ sort, criteria }) => {
    expect(parseSort(sort)).toEqual(criteria);
  });

  it("the four _sort values of 9. List orders", () => {
    expect(orderSortSchema.options).toEqual(spec.orderSortValues);
    for (const value of spec.orderSortValues) {
      const [field, direction] = value.split(":");
      expect(parseSort(value)).toEqual([{ field, direction }]);
    }
  });

  it("9. List orders with every parameter of its table; ordersQuery writes the same", () => {
    const params = new URLSearchParams(spec.orderListQuery);
    expect(parseListQuery(params)).toEqual({
      filters: [
        { field: "status", op: "eq", value: "approved" },
        { field: "id", op: "eq", value: "65f1a2b3c4d5e6f708192a3b" },
        { field: "updated_at", op: "ge", value: "2026-05-01T00:00:00.000Z" },
        { field: "updated_at", op: "le", value: "2026-05-31T23:59:59.999Z" },
      ],
      sort: [{ field: "updated_at", direction: "desc" }],
      limit: 50,
      offset: 0,
    });
    const written = ordersQuery({
      status: "approved",
      id: "65f1a2b3c4d5e6f708192a3b",
      updatedFrom: new Date("2026-05-01T00:00:00.000Z"),
      updatedTo: new Date("2026-05-31T23:59:59.999Z"),
      sort: { field: "updated_at", direction: "desc" },
      limit: 50,
      offset: 0,
    });
    expect([...written].sort()).toEqual([...params].sort());
  });

  it("7. List prices with every parameter it names; pricesQuery writes the same", () => {
    const params = new URLSearchParams(spec.priceListQuery);
    expect(parseListQuery(params)).toEqual({
      filters: [
        { field: "sku", op: "eq", value: "CAM-001" },
        { field: "type", op: "eq", value: "sell" },
      ],
      sort: [{ field: "created_at", direction: "desc" }],
      limit: 50,
      offset: 0,
    });
    const written = pricesQuery({ sku: "CAM-001", type: "sell", sort: { field: "created_at", direction: "desc" }, limit: 50, offset: 0 });
    expect([...written].sort()).toEqual([...params].sort());
  });

  it.each(spec.linkForms)("link $link", ({ link, path, offset, limit }) => {
    expect(parseListLink(link)).toMatchObject({ path, offset, limit });
  });
});

// Where the spec can be read two ways, both readings parse: the dashboard reads the platform
// leniently where nothing depends on the difference.
describe("readings the spec leaves open", () => {
  it("a delivery item's comission as Resources → Delivery item lists it (normalizer, type, value; no currency) parses", () => {
    expect(refusals(orderSchema, spec.orderItemComissionAsListed)).toEqual([]);
    expect(refusals(orderSummarySchema, spec.orderItemComissionAsListed)).toEqual([]);
  });
});
