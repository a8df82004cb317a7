// The shop is in the path, so a link for one shop never shows another, whatever another tab opened.

export function shopPath(shopId: string, path = ""): string {
  return `/s/${encodeURIComponent(shopId)}${path === "/" ? "" : path}`;
}

/** Shop-less paths, redirected to the person's last shop. */
export const SHOP_SECTIONS = ["orders", "shipping", "prices", "skus", "webhooks", "settings", "members", "audit"] as const;
