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
    <nav aria-label={t("label")} className="flex gap-1 border-b border-zinc-200 text-sm">
      {TABS.map((tab) => (
        <Link
          key={tab.key}
          href={tab.href}
          aria-current={tab.key === current ? "page" : undefined}
          className={`-mb-px border-b-2 px-3 py-2 ${tab.key === current ? "border-brand-700 font-medium text-zinc-900" : "border-transparent text-zinc-600 hover:text-zinc-900"}`}
        >
          {t(tab.key)}
        </Link>
      ))}
    </nav>
  );
}
