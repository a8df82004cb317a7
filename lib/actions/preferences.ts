"use server";

import { cookies } from "next/headers";
import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { LOCALES, LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_SECONDS, isTimeZone } from "@/i18n/config";
import { failed, succeeded } from "@/lib/actions/action-state";
import type { ActionState } from "@/lib/actions/action-state";
import { requireShop } from "@/lib/auth/session.server";
import { setSellerTimeZone } from "@/lib/data/shop-time-zone.server";

const localeForm = z.object({ locale: z.enum(LOCALES) });

/** A browser preference that works before signing in, so it authorises nobody and touches no data. */
export async function setLocaleAction(formData: FormData): Promise<void> {
  const parsed = localeForm.safeParse({ locale: formData.get("locale") });
  if (!parsed.success) return;
  (await cookies()).set(LOCALE_COOKIE, parsed.data.locale, {
    maxAge: LOCALE_COOKIE_MAX_AGE_SECONDS,
    sameSite: "lax",
    path: "/",
  });
  revalidatePath("/", "layout");
}

const timeZoneForm = z.object({ timeZone: z.string().trim().refine(isTimeZone) });

/** Dates and "today" for everyone in the shop. */
export async function setTimeZoneAction(shopId: string, _state: ActionState, formData: FormData): Promise<ActionState> {
  const { shop: seller, person } = await requireShop(shopId, "connection.manage");
  const t = await getTranslations("settings.timeZone");
  const parsed = timeZoneForm.safeParse({ timeZone: formData.get("timeZone") });
  if (!parsed.success) return failed(t("invalid"), { fieldErrors: { timeZone: [t("invalid")] } });
  await setSellerTimeZone(seller.id, person, parsed.data.timeZone);
  revalidatePath("/", "layout");
  return succeeded(t("saved", { timeZone: parsed.data.timeZone }), null);
}
