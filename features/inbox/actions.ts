"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { markAllRead, openNotification } from "@/features/inbox/inbox.server";
import { requirePerson } from "@/lib/auth/session.server";
import { shopPath } from "@/lib/shops/paths";
import { attentionPath, causeOfNotification, SHOP_ATTENTION_KIND } from "@/lib/shops/shop-attention";

const openInput = z.object({ id: z.string().min(1).max(64) });

/** Opens what a notification is about (the order, the team) and marks it read: the person's own, in a shop they still belong to. */
export async function openNotificationAction(formData: FormData) {
  const person = await requirePerson();
  const input = openInput.safeParse({ id: formData.get("id") });
  const opened = input.success ? await openNotification(person.id, input.data.id) : null;
  if (!opened) redirect("/inbox");
  const attention = opened.kind === SHOP_ATTENTION_KIND ? causeOfNotification(opened.subject) : null;
  const path =
    opened.kind === "member.joined"
      ? "/members"
      : opened.kind === "digest"
        ? ""
        : attention
          ? attentionPath(attention)
          : `/orders/${encodeURIComponent(opened.subject)}`;
  redirect(shopPath(opened.shopId, path));
}

export async function markAllNotificationsReadAction() {
  const person = await requirePerson();
  await markAllRead(person.id);
  redirect("/inbox");
}
