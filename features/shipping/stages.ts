// The platform has no endpoint for packing stages (spec: Endpoints), so the dashboard keeps them.

export const PACKING_STAGES = ["to_pick", "picked", "packed"] as const;
export type PackingStage = (typeof PACKING_STAGES)[number];

/** For an order without an OrderPacking row. */
export const DEFAULT_PACKING_STAGE: PackingStage = "to_pick";

export function isPackingStage(value: unknown): value is PackingStage {
  return typeof value === "string" && (PACKING_STAGES as readonly string[]).includes(value);
}
