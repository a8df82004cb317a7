"use client";

import Link from "next/link";
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
 * The header's part about the shop of the page (its URL's shop, never "the last one opened"): the
 * sections the person's role there allows, and the other shops they are in.
 */
export function ShopNav({ shops }: { shops: ShopChoice[] }) {
  const t = useTranslations("shell");
  // The shipping section's name lives with its own words (messages/<locale>/shipping.json).
  const shipping = useTranslations("shipping");
  const shopId = useShopId();
  const shop = shops.find((candidate) => candidate.id === shopId);
  if (!shop) return null;
  const others = shops.filter((candidate) => candidate.id !== shop.id);
  return (
    <>
      <nav aria-label={t("mainNavigation")} className="text-sm">
        <ul className="flex flex-col gap-1 lg:flex-row">
          {NAV_ITEMS.filter((item) => can(shop.role, item.capability)).map((item) => (
            <li key={item.key}>
              <NavLink
                href={shopPath(shop.id, item.path)}
                section={shopPath(shop.id, "section" in item ? item.section : item.path)}
                label={item.key === "shipping" ? shipping("title") : t(`nav.${item.key}`)}
              />
            </li>
          ))}
        </ul>
      </nav>
      {others.length > 0 ? (
        <details className="text-sm" data-testid="shop-switcher">
          <summary className="flex min-h-11 cursor-pointer items-center rounded-md px-3 text-zinc-700 hover:bg-zinc-100 lg:min-h-9">
            {t("shop.switch")}
          </summary>
          <ul className="mt-1 flex flex-col gap-1 lg:absolute lg:z-20 lg:rounded-md lg:border lg:border-zinc-200 lg:bg-white lg:p-2 lg:shadow">
            {others.map((other) => (
              <li key={other.id}>
                <Link href={shopPath(other.id)} className="flex min-h-11 items-center rounded-md px-3 hover:bg-zinc-100 lg:min-h-9">
                  {other.name}
                </Link>
              </li>
            ))}
            <li>
              <Link href="/shops" className="flex min-h-11 items-center rounded-md px-3 text-brand-700 hover:bg-zinc-100 lg:min-h-9">
                {t("shop.all")}
              </Link>
            </li>
          </ul>
        </details>
      ) : null}
    </>
  );
}
