import { commissionOf } from "@/features/prices";

// The sales page's best products (issue 42): each SKU code sold in the period, its units, revenue and
// margin (revenue less the platform's commission at the shop's rate and the product's cost per unit:
// decision 0014's costs, the prices' margin rule), ranked by the measure the person picks.

export const RANKINGS = ["revenue", "units", "margin"] as const;
export type Ranking = (typeof RANKINGS)[number];

export interface ProductSold {
  sku: string;
  name: string;
  units: number;
  /** Centavos, of the items whose unit price is in reais. */
  revenue: number;
  /** Items sold without a price in reais: their units count, their revenue does not. */
  withoutRevenue: number;
}

export interface ProductSales extends ProductSold {
  /** Centavos; null without a cost for the code, or when some revenue is not known. */
  margin: number | null;
}

export function withMargins(sold: readonly ProductSold[], costs: ReadonlyMap<string, number>, rateBps: number | null): ProductSales[] {
  return sold.map((product) => {
    const cost = costs.get(product.sku);
    if (cost === undefined || product.withoutRevenue > 0) return { ...product, margin: null };
    return { ...product, margin: product.revenue - commissionOf(product.revenue, rateBps) - cost * product.units };
  });
}

/** The best `limit` by `ranking`; by margin, those without one come last. Ties by revenue, then code. */
export function bestProducts(products: readonly ProductSales[], ranking: Ranking, limit = 10): ProductSales[] {
  const measure = (product: ProductSales) =>
    ranking === "units" ? product.units : ranking === "margin" ? (product.margin ?? Number.NEGATIVE_INFINITY) : product.revenue;
  return [...products]
    .sort((a, b) => measure(b) - measure(a) || b.revenue - a.revenue || (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0))
    .slice(0, limit);
}
