import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { lookUpUnsubscribe } from "@/features/notifications/unsubscribe.server";

export async function unsubscribePageMetadata(): Promise<Metadata> {
  // The link is a person's own: search engines keep out.
  return { title: (await getTranslations("notifications.unsubscribe"))("title"), robots: { index: false, follow: false } };
}

const card = "rounded-lg border border-zinc-200 bg-white p-4 sm:p-6";

/**
 * Where an e-mail's "stop these e-mails" link lands, signed in or not (issue 41). It asks first: a
 * mail scanner following the link changes nothing. The button posts to the one-click route.
 */
export async function UnsubscribePage({ searchParams }: PageProps<"/unsubscribe">) {
  const params = await searchParams;
  const token = typeof params.t === "string" ? params.t : "";
  const done = params.done === "1";
  const [t, lookup] = await Promise.all([getTranslations("notifications"), lookUpUnsubscribe(token)]);

  return (
    <section className="mx-auto max-w-2xl min-w-0 space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">{t("unsubscribe.title")}</h1>
      <div className={`${card} space-y-3 text-sm text-zinc-800`} data-testid="unsubscribe">
        {lookup.state === "invalid" ? (
          <p>{t("unsubscribe.invalid")}</p>
        ) : lookup.state === "gone" ? (
          <p>{t("unsubscribe.gone")}</p>
        ) : done ? (
          <>
            <p role="status" className="font-medium">
              {t("unsubscribe.done", { kind: t(`kinds.${lookup.kind}`), shop: lookup.shopName })}
            </p>
            <p className="text-zinc-700">{t("unsubscribe.undo")}</p>
          </>
        ) : (
          <form method="post" action={`/api/unsubscribe?t=${encodeURIComponent(token)}`} className="space-y-3">
            <input type="hidden" name="from" value="page" />
            <p className="break-words">{t("unsubscribe.confirm", { kind: t(`kinds.${lookup.kind}`), shop: lookup.shopName })}</p>
            <p className="text-zinc-700">{t("unsubscribe.keep")}</p>
            <button type="submit" className="min-h-11 rounded-md bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-900">
              {t("unsubscribe.button")}
            </button>
          </form>
        )}
      </div>
    </section>
  );
}
