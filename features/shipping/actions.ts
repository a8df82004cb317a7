"use server";

import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { failed, succeeded } from "@/lib/action-state";
import type { ActionAnswer } from "@/lib/action-state";
import { requireShop } from "@/lib/auth/session.server";
import { setPackingStage } from "@/features/shipping/packing.server";
import { selectedOrderIds } from "@/features/shipping/picking-data.server";
import { selectionSchema } from "@/features/shipping/selection";
import { PACKING_STAGES } from "@/features/shipping/stages";
import type { PackingStage } from "@/features/shipping/stages";
import { shopPath } from "@/lib/shops/paths";

/** `unknown`: ids asked for that are not the shop's, left alone. */
export type PackingAnswer = ActionAnswer<{ stage: PackingStage; set: number; unknown: number }>;

const packingInput = z.strictObject({ selection: selectionSchema, stage: z.enum(PACKING_STAGES) });

export async function setPackingStageAction(shopId: string, input: unknown): Promise<PackingAnswer> {
  const { shop, person } = await requireShop(shopId, "orders.packing");
  const t = await getTranslations("shipping.stageAction");
  const parsed = packingInput.safeParse(input);
  if (!parsed.success) return failed(t("invalid"));
  const { selection, stage } = parsed.data;
  const { ids } = await selectedOrderIds(shop, selection);
  if (ids.length === 0) return failed(t("noneMatched"));
  const change = await setPackingStage(shop, person, ids, stage);
  revalidatePath(shopPath(shop.id, "/shipping"));
  if (change.set.length === 0) return failed(t("noneKnown"));
  const message = t("done", { count: change.set.length, stage });
  return succeeded(change.unknown.length > 0 ? `${message} ${t("someUnknown", { count: change.unknown.length })}` : message, {
    stage,
    set: change.set.length,
    unknown: change.unknown.length,
  });
}
