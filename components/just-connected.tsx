"use client";

import { useTranslations } from "next-intl";
import { useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";

/**
 * After connecting a shop the dashboard opens it with `?connected=1` (app/page.tsx): this says which
 * shop was connected, once, and takes the flag out of the address so a reload does not say it again.
 */
export function JustConnected({ shopName }: { shopName: string }) {
  const t = useTranslations("shell");
  const searchParams = useSearchParams();
  const [shown] = useState(() => searchParams.get("connected") === "1");
  // Once, while the address still has the flag: replacing the address on every later navigation
  // (as this did) re-set the router's location and could cancel a navigation under way (a click
  // on Settings just after Orders stayed on Orders).
  useEffect(() => {
    if (!shown) return;
    const url = new URL(window.location.href);
    if (url.searchParams.get("connected") !== "1") return;
    url.searchParams.delete("connected");
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  }, [shown]);
  if (!shown) return null;
  return (
    <p role="status" className="mb-4 rounded-md border border-emerald-200 bg-emerald-50 px-4 py-2 text-sm text-emerald-900">
      {t("shop.connected", { name: shopName })}
    </p>
  );
}
