// Every shop page carries its shop in the path (/s/{shopId}/orders), so a link for one shop never
// shows another, whatever another tab opened last. Browser-safe.

/** `path` (a shop page's path without the shop, e.g. "/orders?status=new") within `shopId`'s pages. */
export function shopPath(shopId: string, path = ""): string {
  return `/s/${encodeURIComponent(shopId)}${path === "/" ? "" : path}`;
}

/** The shop-less paths of before (/orders, /prices…), now redirected to the person's last shop. */
export const SHOP_SECTIONS = ["orders", "shipping", "prices", "skus", "webhooks", "settings", "members", "audit"] as const;
