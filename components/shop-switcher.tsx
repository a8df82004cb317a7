"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { useShopId } from "@/components/shop-link";
import type { ShopChoice } from "@/components/shop-nav";
import { shopPath } from "@/lib/shops/paths";

/**
 * The shop the page is about, by name, beside the brand at every width: an agency with several
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
    <details className="group relative min-w-0 text-sm" data-testid="shop-switcher">
      <summary
        className="flex min-h-11 min-w-0 cursor-pointer list-none items-center gap-1 rounded-md border border-zinc-200 px-3 font-medium text-zinc-900 hover:bg-zinc-50 lg:min-h-9 [&::-webkit-details-marker]:hidden"
        aria-label={t("shop.switchFrom", { name: shop.name })}
      >
        <span className="truncate" data-testid="shop-name">
          {shop.name}
        </span>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 shrink-0 text-zinc-500 group-open:rotate-180" fill="currentColor">
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
        </svg>
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
