import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("members.refused"))("title") };
}

// Where a page or action of a shop sends someone who is not in it, or whose role does not reach
// it (lib/auth/session.server.ts requireShop): nothing was read or changed.
export default async function RefusedPage() {
  const t = await getTranslations("members.refused");
  return (
    <section className="mx-auto max-w-lg space-y-4 rounded-lg border border-zinc-200 bg-white p-8" data-testid="refused">
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      <p className="text-sm text-zinc-700">{t("body")}</p>
      <Link href="/shops" className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 hover:underline">
        {t("back")}
      </Link>
    </section>
  );
}
