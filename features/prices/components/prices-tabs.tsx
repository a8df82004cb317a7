"use client";

import { ShopLink } from "@/components/shop-link";
import { useTranslations } from "next-intl";
import { useCan } from "@/components/shop-role";

const TABS = [
  { key: "products", href: "/prices/products" },
  { key: "all", href: "/prices" },
  { key: "bulk", href: "/prices/bulk" },
  { key: "costs", href: "/prices/costs" },
] as const;

/** The prices section's views: by product ("de"/"por"), every price, the CSV upload and the cost CSV. */
export function PricesTabs({ current }: { current: (typeof TABS)[number]["key"] }) {
  const t = useTranslations("prices.products.tabs");
  const canChange = useCan("prices.change");
  const canChangeCosts = useCan("costs.change");
  return (
    // On a phone the CSV tab takes its short name; should a language's words still not fit, the
    // tabs wrap to a second line rather than hide one off screen (the baseline is a shadow, not a
    // border, so the current tab's underline sits on it).
    <nav aria-label={t("label")} className="flex flex-wrap gap-x-0.5 text-sm shadow-[inset_0_-1px_0_var(--color-zinc-200)] md:flex-nowrap">
      {TABS.filter((tab) => (tab.key !== "bulk" || canChange) && (tab.key !== "costs" || canChangeCosts)).map((tab) => (
        <ShopLink
          key={tab.key}
          href={tab.href}
          aria-current={tab.key === current ? "page" : undefined}
          className={`inline-flex min-h-11 shrink-0 items-center border-b-2 px-1.5 whitespace-nowrap md:min-h-0 md:px-3 md:py-2 ${tab.key === current ? "border-brand-700 font-medium text-zinc-900" : "border-transparent text-zinc-600 hover:text-zinc-900"}`}
        >
          {tab.key === "bulk" || tab.key === "costs" ? (
            <>
              <span className="md:hidden">{t(`${tab.key}Short`)}</span>
              <span className="hidden md:inline">{t(tab.key)}</span>
            </>
          ) : (
            t(tab.key)
          )}
        </ShopLink>
      ))}
    </nav>
  );
}
