// Server side of shipping-params.ts: every reader of the table's URL or a selection validates here.
import { z } from "zod";
import { objectIdSchema } from "@marketplace/api/schemas/common";
import { MAX_SELECTED_IDS, SHIPPING_DUE, shippingTable } from "@/features/shipping/shipping-params";
import type { ShippingSelection } from "@/features/shipping/shipping-params";
import { PACKING_STAGES } from "@/features/shipping/stages";
import { tableSchema } from "@/lib/tables/table-schema";

export const shippingSchema = tableSchema(shippingTable);

const stageListSchema = z.array(z.enum(PACKING_STAGES)).min(1).max(PACKING_STAGES.length);

/** Ids are deduplicated, in the order given. */
export const selectionSchema: z.ZodType<ShippingSelection> = z.union([
  z.strictObject({
    ids: z
      .array(objectIdSchema)
      .min(1, "select at least one order")
      .max(MAX_SELECTED_IDS, `at most ${MAX_SELECTED_IDS} orders one by one; select every order of the filter instead`)
      .transform((ids) => [...new Set(ids)]),
  }),
  z.strictObject({
    all: z.strictObject({
      due: z.enum(SHIPPING_DUE).optional(),
      stage: stageListSchema.transform((stages) => [...new Set(stages)]).optional(),
    }),
  }),
]);

const list = (value: string | null) => (value === null || value === "" ? undefined : value.split(","));

/** Reads what selectionSearchParams wrote. */
export function parseSelectionParams(params: URLSearchParams): z.ZodSafeParseResult<ShippingSelection> {
  if (params.get("all") === "1") {
    const due = params.get("due");
    return selectionSchema.safeParse({
      all: { ...(due ? { due } : {}), ...(params.get("stage") ? { stage: list(params.get("stage")) } : {}) },
    });
  }
  return selectionSchema.safeParse({ ids: list(params.get("ids")) ?? [] });
}

/** A repeated parameter keeps its last value. */
export function parseSelectionSearchParams(
  searchParams: Record<string, string | string[] | undefined>,
): z.ZodSafeParseResult<ShippingSelection> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(searchParams)) {
    const last = Array.isArray(value) ? value.at(-1) : value;
    if (last !== undefined) params.set(key, last);
  }
  return parseSelectionParams(params);
}
