import { describe, expect, it } from "vitest";
import { LOCALES } from "@/i18n/config";
import { ordersTable } from "@/features/orders/order-params";
import { pricesTable } from "@/features/prices/price-params";
import { skuCatalogueTable } from "@/features/skus/catalogue-params";
import type { FilterDefinition } from "@/lib/tables/table-params";
import { filterLabelKeys } from "@/lib/tables/filter-labels";
import { eventsTable } from "@/features/webhooks/events/event-params";
import { catalogues } from "@/messages";

// The filter forms' words are message keys held as data (lib/tables/table-params.ts), out of reach
// of next-intl's typed keys: a mistyped one would show the seller the key itself.

const TABLES = { ordersTable, pricesTable, skuCatalogueTable, eventsTable };

function lookup(tree: unknown, key: string): unknown {
  return key
    .split(".")
    .reduce<unknown>((node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined), tree);
}

describe("table filter labels", () => {
  it("name a message in every language, for every filter and option", () => {
    for (const [table, params] of Object.entries(TABLES)) {
      for (const [name, filter] of Object.entries(params.filters as Record<string, FilterDefinition>)) {
        for (const key of filterLabelKeys(filter)) {
          for (const locale of LOCALES) {
            expect(typeof lookup(catalogues[locale], key), `${table}.${name}: ${key} in ${locale}`).toBe("string");
          }
        }
      }
    }
  });
});
