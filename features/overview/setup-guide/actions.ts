"use server";

import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { succeeded } from "@/lib/action-state";
import type { ActionAnswer } from "@/lib/action-state";
import { requireShop } from "@/lib/auth/session.server";
import { shopPath } from "@/lib/shops/paths";
import { dismissSetupGuide, recordAppOpened } from "@/features/overview/setup-guide/setup-guide.server";
import { SETUP_GUIDE_CAPABILITY } from "@/features/overview/setup-guide/setup-steps";

/** "Hide guide": for everyone of the shop, by someone who sees it. */
export async function dismissSetupGuideAction(shopId: string): Promise<ActionAnswer> {
  const { shop, person } = await requireShop(shopId, SETUP_GUIDE_CAPABILITY);
  await dismissSetupGuide(shop.id, person.id);
  revalidatePath(shopPath(shop.id));
  return succeeded((await getTranslations("overview.setupGuide"))("hidden"), null);
}

/** Anyone of the shop opening the dashboard as an installed app ticks the guide's last step. */
export async function recordInstalledAppAction(shopId: string): Promise<void> {
  const { shop } = await requireShop(shopId, "overview.view");
  await recordAppOpened(shop.id);
  revalidatePath(shopPath(shop.id));
}
