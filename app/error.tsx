"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";

// A page that failed while rendering (the platform's answers are explained in place by
// ProblemNotice; this is for what nobody expected). The digest names the server's log line.
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations("common.error");
  return (
    <section role="alert" className="mx-auto max-w-lg space-y-4 rounded-lg border border-red-200 bg-white p-8">
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      <p className="text-sm text-zinc-700">{t("body", { hasReference: error.digest ? "yes" : "no" })}</p>
      {error.digest ? <p className="font-mono text-xs text-zinc-600">{t("reference", { digest: error.digest })}</p> : null}
      <div className="flex items-center gap-4 text-sm">
        <button type="button" onClick={reset} className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-900">
          {t("tryAgain")}
        </button>
        <Link href="/" className="text-zinc-600 hover:underline">
          {t("backToStart")}
        </Link>
      </div>
    </section>
  );
}
