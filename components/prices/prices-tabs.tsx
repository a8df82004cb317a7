import Link from "next/link";
import { useTranslations } from "next-intl";

const TABS = [
  { key: "products", href: "/prices/products" },
  { key: "all", href: "/prices" },
  { key: "bulk", href: "/prices/bulk" },
] as const;

/** The prices section's views: by product ("de"/"por"), every price, and the CSV upload. */
export function PricesTabs({ current }: { current: (typeof TABS)[number]["key"] }) {
  const t = useTranslations("prices.products.tabs");
  return (
    // On a phone the three tabs fit in 390 px with the CSV tab's short name; should a language's
    // words not fit, the strip scrolls by itself rather than the page (its baseline is a shadow, not a
    // border, so that the tabs' underline needs no overflow past it).
    <nav aria-label={t("label")} className="flex gap-1 overflow-x-auto text-sm shadow-[inset_0_-1px_0_var(--color-zinc-200)]">
      {TABS.map((tab) => (
        <Link
          key={tab.key}
          href={tab.href}
          aria-current={tab.key === current ? "page" : undefined}
          className={`inline-flex min-h-11 shrink-0 items-center border-b-2 px-2 whitespace-nowrap md:min-h-0 md:px-3 md:py-2 ${tab.key === current ? "border-brand-700 font-medium text-zinc-900" : "border-transparent text-zinc-600 hover:text-zinc-900"}`}
        >
          {tab.key === "bulk" ? (
            <>
              <span className="md:hidden">{t("bulkShort")}</span>
              <span className="hidden md:inline">{t("bulk")}</span>
            </>
          ) : (
            t(tab.key)
          )}
        </Link>
      ))}
    </nav>
  );
}
