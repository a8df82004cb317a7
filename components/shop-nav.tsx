"use client";

import { useTranslations } from "next-intl";
import { NavLink } from "@/components/nav-link";
import { useShopId } from "@/components/shop-link";
import { can } from "@/lib/people/roles";
import type { Capability, Role } from "@/lib/people/roles";
import { shopPath } from "@/lib/shops/paths";

export interface ShopChoice {
  id: string;
  name: string;
  role: Role;
}

const NAV_ITEMS = [
  { path: "/orders", key: "orders", capability: "orders.view" },
  { path: "/sales", key: "sales", capability: "overview.view" },
  { path: "/shipping", key: "shipping", capability: "orders.view" },
  // Prices open on the view a Brazilian seller reads them in: "de" and "por" per product.
  { path: "/prices/products", section: "/prices", key: "prices", capability: "prices.view" },
  { path: "/skus", key: "skus", capability: "skus.view" },
  { path: "/webhooks", key: "webhooks", capability: "events.view" },
  { path: "/members", key: "members", capability: "members.manage" },
  { path: "/audit", key: "audit", capability: "audit.view" },
  // Owners see the connection and time zone there, managers only prices and margins.
  { path: "/settings", key: "settings", capability: "costs.change" },
] as const satisfies readonly { path: string; section?: string; key: string; capability: Capability }[];

/**
 * The sections of the shop the page is about (its URL's shop, never "the last one opened") that the
 * person's role there allows: the header's second row at a desk, the menu's first part on a phone.
 */
export function ShopNav({ shops }: { shops: ShopChoice[] }) {
  const t = useTranslations("shell");
  const shopId = useShopId();
  const shop = shops.find((candidate) => candidate.id === shopId);
  if (!shop) return null;
  return (
    <nav aria-label={t("mainNavigation")} className="text-sm lg:col-span-full lg:row-start-2 lg:-mx-3 lg:overflow-x-auto lg:pb-2">
      <ul className="flex flex-col gap-1 lg:flex-row lg:whitespace-nowrap">
        {NAV_ITEMS.filter((item) => can(shop.role, item.capability)).map((item) => (
          <li key={item.key}>
            <NavLink
              href={shopPath(shop.id, item.path)}
              section={shopPath(shop.id, "section" in item ? item.section : item.path)}
              label={t(`nav.${item.key}`)}
            />
          </li>
        ))}
      </ul>
    </nav>
  );
}
