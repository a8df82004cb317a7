import { ShopLink } from "@/components/shop-link";
import { useTranslations } from "next-intl";

/**
 * What a detail page shows while the marketplace answers (its loading.tsx): the way back at once,
 * and a placeholder the size of the page, announced to screen readers. `backLabel` and `what` are
 * in the reader's language already: `what` names the thing with its article ("the order" /
 * "o pedido"), as it reads in "Loading the order from the marketplace…".
 */
export function DetailLoading({ back, backLabel, what }: { back: string; backLabel: string; what: string }) {
  const t = useTranslations("common.detailLoading");
  return (
    <div className="space-y-4">
      <ShopLink href={back} className="text-sm text-brand-700 hover:underline">
        ← {backLabel}
      </ShopLink>
      <section aria-busy="true" className="space-y-4 rounded-lg border border-zinc-200 bg-white p-6">
        <p role="status" className="text-sm text-zinc-600">
          {t("loading", { what })}
        </p>
        <div aria-hidden="true" className="animate-pulse space-y-3">
          <div className="h-6 w-1/3 rounded bg-zinc-200" />
          <div className="h-4 w-2/3 rounded bg-zinc-100" />
          <div className="h-4 w-1/2 rounded bg-zinc-100" />
          <div className="h-32 rounded bg-zinc-100" />
        </div>
      </section>
    </div>
  );
}
