"use client";

import Link from "next/link";
import { useParams } from "next/navigation";
import type { ComponentProps } from "react";
import { shopPath } from "@/lib/shops/paths";

/** The shop of the page being shown (its URL's /s/{shopId}), or null outside a shop's pages. */
export function useShopId(): string | null {
  const params = useParams<{ shopId?: string }>();
  return typeof params.shopId === "string" ? decodeURIComponent(params.shopId) : null;
}

/** `path` within the current page's shop. */
export function useShopPath(): (path: string) => string {
  const shopId = useShopId();
  return (path) => (shopId ? shopPath(shopId, path) : path);
}

/** A link to a page of the shop being shown: `href` is the path within the shop ("/orders/1"). */
export function ShopLink({ href, ...props }: Omit<ComponentProps<typeof Link>, "href"> & { href: string }) {
  const path = useShopPath();
  return <Link href={path(href)} {...props} />;
}
