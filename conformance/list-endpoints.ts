// The two lists of the spec and what each is checked with (spec: 7. List prices; 9. List orders;
// Generic list rules). Declared as data: the list checks are the same for both.
import type { z } from "zod";
import { ENDPOINTS } from "@marketplace/api/client";
import { orderSchema, orderSortSchema } from "@marketplace/api/schemas/order";
import { priceSchema } from "@marketplace/api/schemas/price";
import type { ScopedReadKey } from "./access";
import { anyOf, combined, comparison, exactMatch, partialMatch, range, type FilterCase } from "./filters";

export interface ListEndpoint {
  key: "prices" | "orders";
  path: string;
  read: ScopedReadKey;
  itemSchema: z.ZodType;
  /** Endpoint 9 and point 5 give `meta.links`; endpoint 7's response shows only `meta.page`. */
  linksRequired: boolean;
  /** A `_sort` under which records keep their places from one request to the next. */
  stableSort: string;
  /** `_sort` values to check, several criteria comma separated. */
  sorts: readonly string[];
  filters: readonly FilterCase[];
}

export const PRICE_LIST: ListEndpoint = {
  key: "prices",
  path: ENDPOINTS.listPrices.path,
  read: "prices",
  itemSchema: priceSchema,
  linksRequired: false,
  stableSort: "created_at:asc",
  // "Sortable field: created_at"; a field without direction sorts ascending (point 2).
  sorts: ["created_at", "created_at:desc"],
  // `sku` and `type` are the endpoint's own; the other forms are the generic rules' (point 3).
  filters: [
    exactMatch("sku"),
    exactMatch("type"),
    combined(exactMatch("sku"), exactMatch("type")),
    anyOf("sku"),
    partialMatch("sku"),
    comparison("value", "gt"),
    comparison("value", "lt"),
    comparison("created_at", "gte"),
    comparison("created_at", "lte"),
  ],
};

export const ORDER_LIST: ListEndpoint = {
  key: "orders",
  path: ENDPOINTS.listOrders.path,
  read: "orders",
  itemSchema: orderSchema,
  linksRequired: true,
  stableSort: "created_at:asc",
  // The four values endpoint 9 names, and two of them as one multi-criteria sort (point 2).
  sorts: [...orderSortSchema.options, "updated_at:desc,created_at:asc"],
  filters: [
    // Endpoint 9's parameters.
    exactMatch("status"),
    exactMatch("id", { exhaustive: true }),
    comparison("updated_at", "ge"),
    comparison("updated_at", "le"),
    range("updated_at", "ge", "le"),
    // The generic forms (point 3), nested fields by dotted path, and a range from gt and lt (point 4).
    anyOf("status"),
    anyOf("id", { exhaustive: true }),
    partialMatch("customer.name"),
    comparison("updated_at", "gt"),
    comparison("updated_at", "gte"),
    comparison("updated_at", "lt"),
    comparison("updated_at", "lte"),
    range("updated_at", "gt", "lt"),
    comparison("amounts.total", "gt"),
    combined(exactMatch("status"), partialMatch("customer.name")),
  ],
};

export const LIST_ENDPOINTS: readonly ListEndpoint[] = [PRICE_LIST, ORDER_LIST];
