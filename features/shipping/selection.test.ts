import { describe, expect, it } from "vitest";
import { LOCALES } from "@/i18n/config";
import type { FilterDefinition } from "@/lib/tables/table-params";
import { catalogues } from "@/messages";
import { parseSelectionParams, selectionSchema, shippingSchema } from "./selection";
import { MAX_SELECTED_IDS, selectionSearchParams, shippingTable } from "./shipping-params";
import type { ShippingSelection } from "./shipping-params";

const oid = (n: number) => n.toString(16).padStart(24, "0");

describe("the shipping table's URL", () => {
  it("defaults to the earliest ship-by first, 50 a page, and reads its filters", () => {
    expect(shippingSchema.parse(new URLSearchParams()).data).toEqual({ sort: "ship_by:asc", page: 1, size: 50 });
    expect(shippingSchema.parse(new URLSearchParams("due=today&stage=to_pick,picked&size=200")).data).toEqual({
      due: "today",
      stage: ["to_pick", "picked"],
      sort: "ship_by:asc",
      page: 1,
      size: 200,
    });
  });

  it.each(["due=tomorrow", "stage=shipped", "size=25", "sort=customer:asc", "page=0"])("refuses %s", (query) => {
    expect(shippingSchema.parse(new URLSearchParams(query)).success).toBe(false);
  });

  it("names its filters' words in every language", () => {
    const lookup = (tree: unknown, key: string) =>
      key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
    for (const filter of Object.values(shippingTable.filters) as FilterDefinition[]) {
      const keys = [filter.label];
      if (filter.kind === "select") keys.push(filter.emptyLabel);
      if ((filter.kind === "select" || filter.kind === "choices") && filter.optionLabels)
        keys.push(...filter.options.map((option) => `${filter.optionLabels}.${option}`));
      for (const locale of LOCALES)
        for (const key of keys) expect(typeof lookup(catalogues[locale], key), `${key} in ${locale}`).toBe("string");
    }
  });
});

describe("a selection", () => {
  const roundTrip = (selection: ShippingSelection) => parseSelectionParams(selectionSearchParams(selection));

  it("travels in a URL and comes back the same", () => {
    for (const selection of [
      { ids: [oid(1), oid(2)] },
      { all: {} },
      { all: { due: "today" as const } },
      { all: { due: "late" as const, stage: ["to_pick" as const, "packed" as const] } },
    ]) {
      expect(roundTrip(selection).data).toEqual(selection);
    }
    expect(selectionSearchParams({ ids: [oid(1), oid(2)] }).toString()).toBe(`ids=${oid(1)}%2C${oid(2)}`);
    expect(selectionSearchParams({ all: { due: "today", stage: ["to_pick"] } }).toString()).toBe("all=1&due=today&stage=to_pick");
  });

  it("drops repeated ids and refuses what is not an order id, none, or too many one by one", () => {
    expect(selectionSchema.parse({ ids: [oid(1), oid(1), oid(2)] })).toEqual({ ids: [oid(1), oid(2)] });
    expect(parseSelectionParams(new URLSearchParams("ids=")).success).toBe(false);
    expect(parseSelectionParams(new URLSearchParams()).success).toBe(false);
    expect(parseSelectionParams(new URLSearchParams("ids=abc")).success).toBe(false);
    expect(selectionSchema.safeParse({ ids: Array.from({ length: MAX_SELECTED_IDS + 1 }, (_, index) => oid(index)) }).success).toBe(false);
    expect(selectionSchema.safeParse({ ids: Array.from({ length: MAX_SELECTED_IDS }, (_, index) => oid(index)) }).success).toBe(true);
  });

  it("refuses unknown filters and fields", () => {
    expect(parseSelectionParams(new URLSearchParams("all=1&due=tomorrow")).success).toBe(false);
    expect(parseSelectionParams(new URLSearchParams("all=1&stage=shipped")).success).toBe(false);
    expect(selectionSchema.safeParse({ all: { due: "today", sellerId: "x" } }).success).toBe(false);
    expect(selectionSchema.safeParse({ ids: [oid(1)], all: {} }).success).toBe(false);
    expect(selectionSchema.safeParse({}).success).toBe(false);
    expect(selectionSchema.safeParse(null).success).toBe(false);
  });
});
