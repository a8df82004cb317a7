import { describe, expect, it } from "vitest";
import { MarketplaceError } from "./errors";
import { parseListResponse } from "./list-response";
import { priceSchema } from "./schemas/price";

const PATH = "/v1.0/marketplace/portfolios/prices";

function price(n: number) {
  return {
    id: n.toString(16).padStart(24, "0"),
    sku: `SKU-${n}`,
    type: "sell",
    value: 1000 + n,
    currency: "BRL",
    normalizer: 100,
    extras: {},
    created_at: "2024-01-01T00:00:00.000Z",
  };
}

/** A page of a list of `total` prices, with links built the way the spec describes them. */
function envelope(offset: number, limit: number, total: number, options: { links?: boolean; total?: boolean } = {}) {
  const count = Math.max(0, Math.min(limit, total - offset));
  const link = (at: number) => `${PATH}?type=sell&_limit=${limit}&_offset=${at}`;
  return {
    meta: {
      page: { limit, offset, count, max_limit: 200 },
      ...(options.links === false
        ? {}
        : {
            links: {
              previous: offset > 0 ? link(Math.max(0, offset - limit)) : null,
              self: link(offset),
              next: offset + count < total ? link(offset + limit) : null,
            },
          }),
      ...(options.total === false ? {} : { total }),
    },
    results: Array.from({ length: count }, (_, i) => price(offset + i)),
  };
}

function parseError(json: unknown): MarketplaceError {
  try {
    parseListResponse(json, priceSchema);
  } catch (error) {
    if (error instanceof MarketplaceError) return error;
    throw error;
  }
  throw new Error("expected parseListResponse to throw");
}

describe("parseListResponse", () => {
  it("reads the first page: items, page fields, no previous", () => {
    const page = parseListResponse(envelope(0, 2, 5), priceSchema);
    expect(page.items.map((item) => item.sku)).toEqual(["SKU-0", "SKU-1"]);
    expect(page).toMatchObject({ limit: 2, offset: 0, count: 2, maxLimit: 200, total: 5 });
    expect(page.previous).toBeNull();
    expect(page.next).toEqual({ offset: 2, limit: 2 });
  });

  it("reads a middle page with links at both ends", () => {
    const page = parseListResponse(envelope(2, 2, 5), priceSchema);
    expect(page.previous).toEqual({ offset: 0, limit: 2 });
    expect(page.next).toEqual({ offset: 4, limit: 2 });
  });

  it("reads the last page: a short page and no next", () => {
    const page = parseListResponse(envelope(4, 2, 5), priceSchema);
    expect(page.count).toBe(1);
    expect(page.items).toHaveLength(1);
    expect(page.previous).toEqual({ offset: 2, limit: 2 });
    expect(page.next).toBeNull();
  });

  it("reads links given as bare query strings", () => {
    const json = envelope(50, 50, 100);
    json.meta.links = { previous: "?_offset=0&_limit=50", self: "?_offset=50&_limit=50", next: null };
    const page = parseListResponse(json, priceSchema);
    expect(page.previous).toEqual({ offset: 0, limit: 50 });
    expect(page.next).toBeNull();
  });

  it("leaves total out when the platform does not report it", () => {
    const page = parseListResponse(envelope(0, 2, 5, { total: false }), priceSchema);
    expect("total" in page).toBe(false);
    expect(page.next).toEqual({ offset: 2, limit: 2 });
  });

  it("parses an empty list", () => {
    const page = parseListResponse(envelope(0, 50, 0), priceSchema);
    expect(page).toMatchObject({ items: [], count: 0, total: 0, previous: null, next: null });
  });

  it("derives neighbours without links, from total when present", () => {
    expect(parseListResponse(envelope(2, 2, 5, { links: false }), priceSchema)).toMatchObject({
      previous: { offset: 0, limit: 2 },
      next: { offset: 4, limit: 2 },
    });
    expect(parseListResponse(envelope(4, 2, 5, { links: false }), priceSchema)).toMatchObject({ next: null });
  });

  it("derives neighbours without links or total, as the price list example shows", () => {
    const full = parseListResponse(envelope(0, 2, 5, { links: false, total: false }), priceSchema);
    expect(full.next).toEqual({ offset: 2, limit: 2 });
    const short = parseListResponse(envelope(4, 2, 5, { links: false, total: false }), priceSchema);
    expect(short.next).toBeNull();
    expect(short.previous).toEqual({ offset: 2, limit: 2 });
  });

  it("names the failing path of a malformed envelope", () => {
    const missingPage = parseError({ meta: {}, results: [] });
    expect(missingPage.kind).toBe("invalid_response");
    expect(missingPage.message).toMatch(/meta\.page/);

    const json = envelope(0, 2, 5) as { meta: { page: Record<string, unknown> } };
    json.meta.page.max_limit = "200";
    expect(parseError(json).message).toMatch(/meta\.page\.max_limit/);

    expect(parseError({ meta: envelope(0, 2, 5).meta }).message).toMatch(/results/);
    expect(parseError(null).kind).toBe("invalid_response");
  });

  it("names the failing item and field", () => {
    const json = envelope(0, 3, 5);
    const third = json.results[2];
    if (!third) throw new Error("fixture has three results");
    third.type = "wholesale";
    expect(parseError(json).message).toMatch(/results\[2\]\.type/);
  });

  it("refuses a count that disagrees with the results", () => {
    const json = envelope(0, 2, 5);
    json.meta.page.count = 3;
    expect(parseError(json).message).toMatch(/meta\.page\.count/);
  });

  it("refuses a link whose _offset is not an integer", () => {
    const json = envelope(0, 2, 5);
    if (!json.meta.links) throw new Error("fixture has links");
    json.meta.links.next = `${PATH}?_offset=two&_limit=2`;
    expect(parseError(json).message).toMatch(/meta\.links\.next/);
  });
});
