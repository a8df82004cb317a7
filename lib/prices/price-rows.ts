// What the browser gets of a price in the prices table: the dashboard's own shape, mapped from
// the platform's (spec: Resources → Price). Plain module: the table and lib/data both use it.
import type { Price, PriceHistoryItem } from "@/lib/marketplace/schemas/price";
import type { MoneyAmount } from "@/lib/money";
import type { TablePage } from "@/lib/tables/table-page";

export interface PriceRow {
  id: string;
  sku: string;
  /** The product's name, when the catalogue or an order gave one (lib/data/product-names.ts). */
  name: string | null;
  type: Price["type"];
  amount: MoneyAmount;
  createdAt: string;
}

export type PricesPage = TablePage<PriceRow>;

export function toPriceRow(price: Price, name: string | null = null): PriceRow {
  return {
    id: price.id,
    sku: price.sku,
    name,
    type: price.type,
    amount: { value: price.value, currency: price.currency, normalizer: price.normalizer },
    createdAt: price.created_at,
  };
}

/** One price that was set, for the history chart. */
export interface PricePoint {
  at: string;
  amount: MoneyAmount;
}

export function toPricePoint(item: PriceHistoryItem): PricePoint {
  return { at: item.created_at, amount: { value: item.value, currency: item.currency, normalizer: item.normalizer } };
}
