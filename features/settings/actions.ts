"use server";

import { revalidatePath } from "next/cache";
import { getLocale, getTranslations } from "next-intl/server";
import { timeZoneWord } from "@/lib/words/time-zone-words";
import { z } from "zod";
import { isTimeZone } from "@/i18n/config";
import { failed, succeeded } from "@/lib/action-state";
import type { ActionState } from "@/lib/action-state";
import { requireShop } from "@/lib/auth/session.server";
import { setShopTimeZone } from "@/features/settings/shop-time-zone.server";

const timeZoneForm = z.object({ timeZone: z.string().trim().refine(isTimeZone) });

/** Dates and "today" for everyone in the shop. */
export async function setTimeZoneAction(shopId: string, _state: ActionState, formData: FormData): Promise<ActionState> {
  const { shop, person } = await requireShop(shopId, "connection.manage");
  const t = await getTranslations("settings.timeZone");
  const parsed = timeZoneForm.safeParse({ timeZone: formData.get("timeZone") });
  if (!parsed.success) return failed(t("invalid"), { fieldErrors: { timeZone: [t("invalid")] } });
  await setShopTimeZone(shop.id, person, parsed.data.timeZone);
  revalidatePath("/", "layout");
  return succeeded(t("saved", { timeZone: timeZoneWord(parsed.data.timeZone, await getLocale()) }), null);
}
