// Browser-safe and without zod like the other tables' declarations; the server validates with selection.ts.
import { PACKING_STAGES } from "@/features/shipping/stages";
import type { PackingStage } from "@/features/shipping/stages";
import { choicesFilter, defineTableParams, selectFilter } from "@/lib/tables/table-params";
import type { StateOf } from "@/lib/tables/table-params";
import type { TablePage } from "@/lib/tables/table-page";

/** "today" includes late orders: a late order ships this morning too. */
export const SHIPPING_DUE = ["today", "late"] as const;
export type ShippingDue = (typeof SHIPPING_DUE)[number];

export const shippingTable = defineTableParams({
  filters: {
    due: selectFilter("shipping.filters.due", SHIPPING_DUE, {
      emptyLabel: "shipping.filters.dueAny",
      optionLabels: "shipping.filters.dues",
    }),
    stage: choicesFilter("shipping.filters.stage", PACKING_STAGES, { optionLabels: "shipping.stages" }),
  },
  sorts: ["ship_by:asc", "ship_by:desc"],
  sizes: [50, 100, 200],
});

export type ShippingFilters = StateOf<typeof shippingTable>;

/** Read from the order mirror and the packing stages. */
export interface ShippingRow {
  id: string;
  /** The short reference (decision 0018). */
  reference: number | null;
  /** Empty for a role that does not see customers (decision 0010). */
  customerName: string;
  items: number;
  /** Each has its own label. */
  openDeliveries: number;
  shipBy: string;
  stage: PackingStage;
  /** Null while nobody has set a stage. */
  stageAt: string | null;
}

export type ShippingPage = TablePage<ShippingRow>;

/** At most a page's worth, so a picking list's link stays a short URL. */
export const MAX_SELECTED_IDS = 200;
/** Earliest ship-by first. */
export const MAX_SELECTION_ORDERS = 500;

export type ShippingSelection =
  | { ids: string[] }
  /** Every order to ship that matches these filters, as the table would list them. */
  | { all: { due?: ShippingDue; stage?: PackingStage[] } };

/** `ids=a,b` or `all=1&due=today&stage=to_pick`. */
export function selectionSearchParams(selection: ShippingSelection): URLSearchParams {
  const params = new URLSearchParams();
  if ("ids" in selection) {
    params.set("ids", selection.ids.join(","));
    return params;
  }
  params.set("all", "1");
  if (selection.all.due) params.set("due", selection.all.due);
  if (selection.all.stage?.length) params.set("stage", selection.all.stage.join(","));
  return params;
}
