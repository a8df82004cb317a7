"use server";

import { cookies } from "next/headers";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { LOCALES, LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_SECONDS } from "@/i18n/config";
import { getCurrentPerson } from "@/lib/auth/session.server";
import { db } from "@/lib/db.server";

const localeForm = z.object({ locale: z.enum(LOCALES) });

/**
 * A browser preference that works before signing in, so it authorises nobody. Signed in, it is
 * also the person's language for what reaches them outside the browser (e-mail, push): their own row only.
 */
export async function setLocaleAction(formData: FormData): Promise<void> {
  const parsed = localeForm.safeParse({ locale: formData.get("locale") });
  if (!parsed.success) return;
  (await cookies()).set(LOCALE_COOKIE, parsed.data.locale, {
    maxAge: LOCALE_COOKIE_MAX_AGE_SECONDS,
    sameSite: "lax",
    path: "/",
  });
  const person = await getCurrentPerson();
  if (person) await db.person.update({ where: { id: person.id }, data: { locale: parsed.data.locale } });
  revalidatePath("/", "layout");
}
