import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { requirePerson } from "@/lib/auth/session.server";
import { saveNotificationPreferencesAction } from "@/features/notifications/actions";
import { channelsOn } from "@/features/notifications/channels.server";
import { NOTIFICATION_KINDS } from "@/features/notifications/kinds";
import { readPreferences, undeliveredInShop } from "@/features/notifications/preferences.server";
import { timeOfDay } from "@/features/notifications/quiet-hours";

export async function preferencesPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("notifications.preferences"))("title") };
}

const card = "rounded-lg border border-zinc-200 bg-white p-4 sm:p-6";
const input = "min-h-11 rounded-md border border-zinc-300 px-3 text-sm md:min-h-9";

/**
 * The signed-in person's own alert preferences, one form per shop (issue 41): which kinds reach
 * their e-mail, and quiet hours in the shop's zone. A shop's owner also reads how many of its
 * people's e-mails could not be sent. Works without JavaScript: plain forms and a server action.
 */
export async function PreferencesPage({ searchParams }: PageProps<"/inbox/settings">) {
  const person = await requirePerson();
  const params = await searchParams;
  const [t, people, locale, preferences] = await Promise.all([
    getTranslations("notifications"),
    getTranslations("people"),
    getLocale(),
    readPreferences(person.id, person.shops),
  ]);
  const owned = person.shops.filter((shop) => shop.role === "owner");
  const undelivered = new Map(await Promise.all(owned.map(async (shop) => [shop.id, await undeliveredInShop(shop.id)] as const)));
  const emailOn = channelsOn().email;

  return (
    <section className="max-w-2xl min-w-0 space-y-4">
      <Link href="/inbox" className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 hover:underline md:min-h-0">
        {t("preferences.back")}
      </Link>
      <h1 className="text-2xl font-semibold tracking-tight">{t("preferences.title")}</h1>
      <p className="text-sm text-zinc-700">{t("preferences.intro")}</p>
      {!emailOn ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="email-off">
          {t("preferences.emailOff")}
        </p>
      ) : person.marketplaceEmail ? (
        <p className="text-sm break-words text-zinc-700">{t("preferences.address", { email: person.marketplaceEmail })}</p>
      ) : (
        <p className="text-sm text-zinc-700">{t("preferences.noAddress")}</p>
      )}
      {params.error === "invalid" ? (
        <p role="alert" className="text-sm text-red-700">
          {t("preferences.invalid")}
        </p>
      ) : null}

      {person.shops.map((shop) => {
        const mine = preferences.get(shop.id)!;
        const failed = undelivered.get(shop.id);
        return (
          <form
            key={shop.id}
            id={`shop-${shop.id}`}
            action={saveNotificationPreferencesAction}
            className={`${card} space-y-4`}
            data-testid="shop-preferences"
          >
            <input type="hidden" name="shopId" value={shop.id} />
            <div>
              <h2 className="text-lg font-medium break-words">{shop.name}</h2>
              <p className="text-sm text-zinc-600">
                {t("preferences.role", { role: people(`roles.${shop.role}`).toLocaleLowerCase(locale) })}
              </p>
            </div>
            {params.saved === shop.id ? (
              <p role="status" className="text-sm font-medium text-brand-700">
                {t("preferences.saved")}
              </p>
            ) : null}
            {params.error === "quiet" && params.shop === shop.id ? (
              <p role="alert" className="text-sm text-red-700">
                {t("preferences.quietError")}
              </p>
            ) : null}
            {failed && failed.count > 0 ? (
              <p className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900" data-testid="undelivered">
                {t("preferences.undelivered", { count: failed.count })}{" "}
                {failed.refused ? t("preferences.undeliveredRefused") : t("preferences.undeliveredRetries")}
              </p>
            ) : null}
            <fieldset disabled={!emailOn || !person.marketplaceEmail} className="space-y-2">
              {NOTIFICATION_KINDS.map((kind) => (
                <label key={kind} className="flex min-h-11 items-center gap-3 text-sm md:min-h-9">
                  <input type="checkbox" name="email" value={kind} defaultChecked={mine.choices[kind].email} className="size-5" />
                  {t("preferences.byEmail", { kind: t(`kinds.${kind}`) })}
                </label>
              ))}
            </fieldset>
            <label className="flex flex-wrap items-center gap-2 text-sm">
              {t("preferences.digestAt")}
              <input type="time" name="digestAt" defaultValue={timeOfDay(mine.digestAt)} className={input} />
            </label>
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium">{t("preferences.quietTitle")}</legend>
              <p className="text-sm text-zinc-600">{t("preferences.quietHelp")}</p>
              <div className="flex flex-wrap items-center gap-3">
                <label className="flex items-center gap-2 text-sm">
                  {t("preferences.quietFrom")}
                  <input type="time" name="quietFrom" defaultValue={mine.quiet ? timeOfDay(mine.quiet.from) : ""} className={input} />
                </label>
                <label className="flex items-center gap-2 text-sm">
                  {t("preferences.quietTo")}
                  <input type="time" name="quietTo" defaultValue={mine.quiet ? timeOfDay(mine.quiet.to) : ""} className={input} />
                </label>
              </div>
            </fieldset>
            <button type="submit" className="min-h-11 rounded-md bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-900">
              {t("preferences.save")}
            </button>
          </form>
        );
      })}
    </section>
  );
}
