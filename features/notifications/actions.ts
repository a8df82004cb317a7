"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { requirePerson } from "@/lib/auth/session.server";
import { NOTIFICATION_KINDS } from "@/features/notifications/kinds";
import type { ChannelChoice, NotificationKind } from "@/features/notifications/kinds";
import { readPreferences, savePreferences } from "@/features/notifications/preferences.server";
import { minuteOfDay } from "@/features/notifications/quiet-hours";

const timeField = z
  .string()
  .max(5)
  .transform((value, context) => {
    if (value === "") return null;
    const minute = minuteOfDay(value);
    if (minute === null) {
      context.addIssue({ code: "custom", message: "time" });
      return z.NEVER;
    }
    return minute;
  });

const preferencesForm = z.object({
  shopId: z.string().min(1).max(64),
  quietFrom: timeField,
  quietTo: timeField,
  digestAt: timeField,
  email: z.array(z.enum(NOTIFICATION_KINDS)).max(NOTIFICATION_KINDS.length),
});

/**
 * Saves the signed-in person's own preferences for one of their shops. Quiet hours need both ends
 * (one alone, or an unreadable time, is sent back with its error, nothing saved). Push keeps what
 * it was until it can be chosen.
 */
export async function saveNotificationPreferencesAction(formData: FormData) {
  const person = await requirePerson();
  const parsed = preferencesForm.safeParse({
    shopId: formData.get("shopId"),
    quietFrom: formData.get("quietFrom") ?? "",
    quietTo: formData.get("quietTo") ?? "",
    digestAt: formData.get("digestAt") ?? "",
    email: formData.getAll("email"),
  });
  const shop = parsed.success ? person.shops.find((candidate) => candidate.id === parsed.data.shopId) : undefined;
  if (!parsed.success || !shop) redirect(`/inbox/settings?error=invalid`);
  const { quietFrom, quietTo, digestAt, email } = parsed.data;
  if ((quietFrom === null) !== (quietTo === null))
    redirect(`/inbox/settings?error=quiet&shop=${encodeURIComponent(shop.id)}#shop-${shop.id}`);
  const current = (await readPreferences(person.id, [shop])).get(shop.id)!;
  const choices = Object.fromEntries(
    NOTIFICATION_KINDS.map((kind) => [kind, { email: email.includes(kind), push: current.choices[kind].push }]),
  ) as Record<NotificationKind, ChannelChoice>;
  await savePreferences(person.id, shop.id, {
    choices,
    quiet: quietFrom === null || quietTo === null ? null : { from: quietFrom, to: quietTo },
    digestAt: digestAt ?? current.digestAt,
  });
  redirect(`/inbox/settings?saved=${encodeURIComponent(shop.id)}#shop-${shop.id}`);
}
