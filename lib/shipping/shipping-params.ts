// The shipping table's filters, sorts and sizes (lib/tables/table-params.ts), what a row of it
// carries, and how a selection of its orders travels (the picking list's URL, the labels' request,
// the stage action). Browser-safe and without zod, like the other tables' declarations; the server
// validates with lib/shipping/selection.ts.
import { PACKING_STAGES } from "@/lib/shipping/stages";
import type { PackingStage } from "@/lib/shipping/stages";
import { choicesFilter, defineTableParams, selectFilter } from "@/lib/tables/table-params";
import type { StateOf } from "@/lib/tables/table-params";
import type { TablePage } from "@/lib/tables/table-page";

/**
 * "today": everything that must leave by the end of the seller's day, late orders included (a
 * late order ships this morning too); "late": only those whose ship-by has passed.
 */
export const SHIPPING_DUE = ["today", "late"] as const;
export type ShippingDue = (typeof SHIPPING_DUE)[number];

export const shippingTable = defineTableParams({
  filters: {
    due: selectFilter("shipping.filters.due", SHIPPING_DUE, { emptyLabel: "shipping.filters.dueAny", optionLabels: "shipping.filters.dues" }),
    stage: choicesFilter("shipping.filters.stage", PACKING_STAGES, { optionLabels: "shipping.stages" }),
  },
  sorts: ["ship_by:asc", "ship_by:desc"],
  sizes: [50, 100, 200],
});

export type ShippingFilters = StateOf<typeof shippingTable>;

/** An order to ship as the shipping table shows it, read from the order mirror and the packing stages. */
export interface ShippingRow {
  id: string;
  customerName: string;
  /** Units over all the order's deliveries. */
  items: number;
  /** Deliveries still to post (each has its own label). */
  openDeliveries: number;
  /** The earliest handling-time limit among them (lib/orders/ship-by.ts). */
  shipBy: string;
  stage: PackingStage;
  /** When the stage was last set; null while nobody has. */
  stageAt: string | null;
}

export type ShippingPage = TablePage<ShippingRow>;

/** Orders ticked one by one: at most a page's worth, so a picking list's link stays a short URL. */
export const MAX_SELECTED_IDS = 200;
/** "Every order of the filter" reads at most this many (earliest ship-by first). */
export const MAX_SELECTION_ORDERS = 500;

/** What the picking list, the labels and the stage action act on. */
export type ShippingSelection =
  | { ids: string[] }
  /** Every order to ship that matches these filters, as the table would list them. */
  | { all: { due?: ShippingDue; stage?: PackingStage[] } };

/** A selection as URL parameters (the picking list page and its PDF): `ids=a,b` or `all=1&due=today&stage=to_pick`. */
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
