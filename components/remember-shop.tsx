"use client";

import { useEffect } from "react";
import { LAST_SHOP_COOKIE } from "@/lib/shops/last-shop";

/** Remembers, in this browser, the shop whose page is shown: where the shop-less paths lead next (lib/shops/last-shop.ts). */
export function RememberShop({ shopId }: { shopId: string }) {
  useEffect(() => {
    document.cookie = `${LAST_SHOP_COOKIE}=${encodeURIComponent(shopId)}; path=/; max-age=31536000; samesite=lax`;
  }, [shopId]);
  return null;
}
