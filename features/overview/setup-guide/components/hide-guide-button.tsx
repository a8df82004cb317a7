"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { useShopId } from "@/components/shop-link";
import { dismissSetupGuideAction } from "@/features/overview/setup-guide/actions";

/** "Hide guide": the page is rendered again without it (the action revalidates the overview). */
export function HideGuideButton() {
  const t = useTranslations("overview.setupGuide");
  const shopId = useShopId() ?? "";
  // A form action, so a tap made before the page's scripts ran is replayed once they have.
  const [, hide, pending] = useActionState(async () => {
    await dismissSetupGuideAction(shopId);
    return null;
  }, null);
  return (
    <form action={hide}>
      <button
        type="submit"
        disabled={pending}
        className="min-h-11 rounded-md border border-zinc-300 bg-white px-3 text-sm font-medium whitespace-nowrap text-zinc-800 hover:bg-zinc-50 disabled:opacity-60 md:min-h-9"
      >
        {pending ? t("hiding") : t("hide")}
      </button>
    </form>
  );
}
