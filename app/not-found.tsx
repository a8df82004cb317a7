import Link from "next/link";
import { useTranslations } from "next-intl";

// Every notFound() of a page (an id that is not the seller's, or does not exist) and every unknown
// address lands here, inside the app's layout.
export default function NotFound() {
  const t = useTranslations("common.notFound");
  return (
    <section className="mx-auto max-w-lg space-y-4 rounded-lg border border-zinc-200 bg-white p-8">
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      <p className="text-sm text-zinc-700">{t("body")}</p>
      <div className="flex gap-4 text-sm">
        <Link href="/" className="font-medium text-brand-700 hover:underline">
          {t("backToStart")}
        </Link>
      </div>
    </section>
  );
}
