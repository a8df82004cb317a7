// Packing stages: where an order is between the shelf and the carrier. The platform has no
// endpoint for them (spec: Endpoints), so the dashboard keeps them (prisma/schema.prisma
// OrderPacking; lib/data/packing.ts). Browser-safe: the shipping table and its filter use them.

export const PACKING_STAGES = ["to_pick", "picked", "packed"] as const;
export type PackingStage = (typeof PACKING_STAGES)[number];

/** An order nobody has marked yet (it has no OrderPacking row) is still to pick. */
export const DEFAULT_PACKING_STAGE: PackingStage = "to_pick";

export function isPackingStage(value: unknown): value is PackingStage {
  return typeof value === "string" && (PACKING_STAGES as readonly string[]).includes(value);
}
