import type { TablePage } from "@/lib/tables/table-page";

export interface SkuRow {
  id: string;
  code: string;
  title: string;
  /** "imported" after statusCode 0; "created" once the portfolio.sku notification confirmed it. */
  status: string;
  createdAt: string;
  confirmedAt: string | null;
}

export type SkuPage = TablePage<SkuRow>;
