import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { markAllNotificationsReadAction, openNotificationAction } from "@/features/inbox/actions";
import { listInbox } from "@/features/inbox/inbox.server";
import type { InboxItem } from "@/features/inbox/inbox.server";
import { requirePerson } from "@/lib/auth/session.server";
import { getDisplayFormat } from "@/lib/format.server";
import { orderLabel } from "@/lib/words/order-reference";
import { calendarDayWords } from "@/lib/words/calendar-day";

export async function inboxPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("inbox"))("title") };
}

/**
 * The signed-in person's notifications across their shops, newest first (issue 41). Each opens
 * what it is about (the order, the team), marking it read, through a form: it works without JavaScript, and a link's
 * prefetch cannot mark anything read.
 */
export async function InboxPage() {
  const person = await requirePerson();
  const [t, people, locale, format, items] = await Promise.all([
    getTranslations("inbox"),
    getTranslations("people"),
    getLocale(),
    getDisplayFormat(),
    listInbox(person.id),
  ]);
  const unread = items.some((item) => !item.read);
  const describe = (item: InboxItem): string => {
    if (item.kind === "shop.attention") return t(`attention.${item.cause}`, { shop: item.shopName });
    if (item.kind === "digest") {
      return t("digest", {
        date: calendarDayWords(item.day, locale),
      });
    }
    if (item.kind === "member.joined") {
      return t("memberJoined", { name: item.name ?? "—", role: item.role ? people(`roles.${item.role}`).toLocaleLowerCase(locale) : "—" });
    }
    const reference = orderLabel({ id: item.orderId, reference: item.reference });
    if (item.kind === "order.late") return t("lateOrder", { reference });
    return item.total ? t("newOrder", { reference, total: format.money(item.total) }) : t("newOrderNoTotal", { reference });
  };

  return (
    <section className="max-w-2xl min-w-0 space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        {unread ? (
          <form action={markAllNotificationsReadAction}>
            <button type="submit" className="min-h-11 rounded-md border border-zinc-300 bg-white px-3 text-sm hover:bg-zinc-50 md:min-h-9">
              {t("markAllRead")}
            </button>
          </form>
        ) : null}
      </div>
      <p className="text-sm text-zinc-700">
        {t("intro")}{" "}
        <Link href="/inbox/settings" className="font-medium text-brand-700 hover:underline">
          {t("preferences")}
        </Link>
      </p>
      {items.length === 0 ? (
        <p className="rounded-lg border border-zinc-200 bg-white p-4 text-sm text-zinc-700" data-testid="inbox-empty">
          {t("empty")}
        </p>
      ) : (
        <ul className="divide-y divide-zinc-100 rounded-lg border border-zinc-200 bg-white" data-testid="inbox-items">
          {items.map((item) => {
            const what = describe(item);
            return (
              <li key={item.id} data-testid="inbox-item" data-read={item.read}>
                <form action={openNotificationAction}>
                  <input type="hidden" name="id" value={item.id} />
                  <button type="submit" className="flex w-full items-start gap-3 px-4 py-3 text-left hover:bg-zinc-50">
                    <span
                      aria-hidden="true"
                      className={`mt-1.5 size-2.5 shrink-0 rounded-full ${item.read ? "bg-transparent" : "bg-brand-700"}`}
                    />
                    <span className="min-w-0 space-y-0.5">
                      <span className={`block ${item.read ? "text-zinc-700" : "font-semibold text-zinc-900"}`}>
                        {what}
                        {item.read ? null : <span className="sr-only"> · {t("unread")}</span>}
                      </span>
                      <span className="block text-sm text-zinc-600">
                        {t("inShop", { shop: item.shopName, when: format.date(item.createdAt) })}
                      </span>
                    </span>
                  </button>
                </form>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
