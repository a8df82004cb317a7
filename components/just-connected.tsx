"use client";

import { useTranslations } from "next-intl";
import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";

/**
 * After connecting a shop the dashboard opens it with `?connected=1` (app/page.tsx): this says which
 * shop was connected, once, and takes the flag out of the address so a reload does not say it again.
 */
export function JustConnected({ shopName }: { shopName: string }) {
  const t = useTranslations("shell");
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [shown] = useState(() => searchParams.get("connected") === "1");
  useEffect(() => {
    if (shown) window.history.replaceState(null, "", pathname);
  }, [shown, pathname]);
  if (!shown) return null;
  return (
    <p role="status" className="mb-4 rounded-md border border-emerald-200 bg-emerald-50 px-4 py-2 text-sm text-emerald-900">
      {t("shop.connected", { name: shopName })}
    </p>
  );
}
