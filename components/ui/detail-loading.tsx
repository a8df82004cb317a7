import { useTranslations } from "next-intl";

/**
 * What a detail page shows while a slow platform answers (components/platform/platform-answer.tsx),
 * under the way back, which is drawn at once: a placeholder the size of the page, announced to
 * screen readers. `what` is in the reader's language already and names the thing with its article
 * ("the order" / "o pedido"), as it reads in "Loading the order from the marketplace…".
 */
export function DetailLoading({ what }: { what: string }) {
  const t = useTranslations("common.detailLoading");
  return (
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
  );
}
