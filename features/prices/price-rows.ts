// The browser gets this shape of a price, never the platform's.
import type { Price, PriceHistoryItem } from "@marketplace/api/schemas/price";
import type { MoneyAmount } from "@/lib/money";
import type { TablePage } from "@/lib/tables/table-page";

export interface PriceRow {
  id: string;
  sku: string;
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

export interface PricePoint {
  at: string;
  amount: MoneyAmount;
}

export function toPricePoint(item: PriceHistoryItem): PricePoint {
  return { at: item.created_at, amount: { value: item.value, currency: item.currency, normalizer: item.normalizer } };
}
