"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { useShopId } from "@/components/shop-link";
import { DisclosureChevron } from "@/components/ui/disclosure-chevron";
import type { ShopChoice } from "@/components/shop-nav";
import { shopPath } from "@/lib/shops/paths";

/**
 * The shop the page is about, by name, beside the brand at a desk and on a row of its own on a
 * phone, so the name is never cut short: an agency with several
 * shops must never wonder which one it is changing. It opens on the person's other shops, all of
 * them, and connecting another.
 */
export function ShopSwitcher({ shops }: { shops: ShopChoice[] }) {
  const t = useTranslations("shell");
  const shopId = useShopId();
  const shop = shops.find((candidate) => candidate.id === shopId);
  if (!shop) return null;
  const others = shops.filter((candidate) => candidate.id !== shop.id);
  return (
    <details
      className="group relative order-last min-w-0 basis-full pb-2 text-sm lg:order-none lg:basis-auto lg:pb-0"
      data-testid="shop-switcher"
    >
      <summary
        className="flex min-h-11 min-w-0 cursor-pointer list-none items-center gap-1 rounded-md border border-zinc-200 px-3 font-medium text-zinc-900 hover:bg-zinc-50 lg:min-h-9 [&::-webkit-details-marker]:hidden"
        aria-label={t("shop.switchFrom", { name: shop.name })}
      >
        <span className="truncate" data-testid="shop-name">
          {shop.name}
        </span>
        <DisclosureChevron />
      </summary>
      <ul className="absolute left-0 top-full z-50 mt-1 flex w-64 max-w-[80vw] flex-col gap-1 rounded-md border border-zinc-200 bg-white p-2 shadow-lg">
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
  );
}
