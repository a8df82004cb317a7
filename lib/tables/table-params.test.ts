import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ORDER_STATUSES } from "@marketplace/api/values";
import { ordersSchema, ordersTable } from "@/features/orders/order-filters";
import { eventsSchema, eventsTable, PROCESSING_STATES } from "@/features/webhooks/events/event-filters";

// The browser reads back the URLs a table writes without zod (`read`); the server validates every
// URL with the schema built from the same declaration. For any state the table can write, both
// must read the same state, or the browser would ask for one page and the server render another.

const instant = fc
  .date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2030-01-01T00:00:00Z"), noInvalidDate: true })
  .map((date) => date.toISOString());
const text = fc
  .string({ minLength: 1, maxLength: 40 })
  .map((value) => value.trim())
  .filter((value) => value !== "" && !value.includes(","));

const orderState = fc.record(
  {
    status: fc.uniqueArray(fc.constantFrom(...ORDER_STATUSES), { minLength: 1 }),
    id: fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 24, maxLength: 24 }),
    customer: text,
    from: instant,
    sort: fc.constantFrom(...ordersTable.sorts!),
    page: fc.integer({ min: 1, max: 5000 }),
    size: fc.constantFrom(...ordersTable.sizes),
  },
  { requiredKeys: ["sort", "page", "size"] },
);

describe("a table's URL, read in the browser and validated on the server", () => {
  it("orders: every state the table writes reads back the same on both sides", () => {
    fc.assert(
      fc.property(orderState, (state) => {
        const params = ordersTable.toSearchParams(state);
        const validated = ordersSchema.parse(params);
        expect(validated.success).toBe(true);
        expect(ordersTable.read(params)).toEqual(validated.data);
        expect(ordersTable.read(params)).toEqual(state);
      }),
    );
  });

  it("events: the same, for a table without sorts", () => {
    const eventState = fc.record(
      {
        processing: fc.constantFrom(...PROCESSING_STATES),
        resource: text,
        to: instant,
        page: fc.integer({ min: 1, max: 100_000 }),
        size: fc.constantFrom(...eventsTable.sizes),
      },
      { requiredKeys: ["page", "size"] },
    );
    fc.assert(
      fc.property(eventState, (state) => {
        const params = eventsTable.toSearchParams(state);
        const validated = eventsSchema.parse(params);
        expect(validated.success).toBe(true);
        expect(eventsTable.read(params)).toEqual(validated.data);
      }),
    );
  });

  it("an empty URL is the initial state on both sides", () => {
    expect(ordersSchema.parse(new URLSearchParams()).data).toEqual(ordersTable.initial);
    expect(ordersTable.initial).toEqual({ sort: "created_at:desc", page: 1, size: 25 });
  });

  it("the server refuses what the table never writes; the browser never reads it (the page said it was refused)", () => {
    for (const query of ["status=shipped", "size=30", "id=abc", "page=0", "from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z"]) {
      expect(ordersSchema.parse(new URLSearchParams(query)).success).toBe(false);
    }
  });
});
