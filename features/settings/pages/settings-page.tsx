import type { Metadata } from "next";
import { useTranslations } from "next-intl";
import { scopeSchema } from "@marketplace/api/schemas/scopes";
import { getTranslations } from "next-intl/server";
import { BRAZILIAN_TIME_ZONES, timeZoneWord } from "@/lib/words/time-zone-words";
import { PricingSettings } from "@/features/prices/components";
import { TimeZoneForm } from "@/features/settings/components/time-zone-form";
import { can } from "@/lib/people/roles";
import { requireShop } from "@/lib/auth/session.server";
import { deleteMyDataAction, disconnectAction, signOutEverywhereAction } from "@/lib/auth/actions";
import { getDisplayFormat } from "@/lib/format.server";
import Link from "next/link";
import { emailChannelOn } from "@/features/notifications";

export async function settingsPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("settings"))("title") };
}

// Brazil's zones (IANA), most sellers' first: the list a Brazilian seller picks from.
// Connection, time zone and data are the owner's; pricing is the managers' too, so a manager sees
// that part alone.
export async function SettingsPage({ params }: PageProps<"/s/[shopId]/settings">) {
  const access = await requireShop((await params).shopId, "costs.change");
  const shop = access.shop;
  const owner = can(access.role, "connection.manage");
  const [t, format] = await Promise.all([getTranslations("settings"), getDisplayFormat()]);
  const { connection } = shop;
  const granted = connection.scopesRequested.filter((scope) => !connection.scopesMissing.includes(scope));
  const otherZones = Intl.supportedValuesOf("timeZone").filter((zone) => !BRAZILIAN_TIME_ZONES.includes(zone));
  // A zone stored before this list changed still shows as chosen.
  if (!BRAZILIAN_TIME_ZONES.includes(shop.timeZone) && !otherZones.includes(shop.timeZone)) otherZones.unshift(shop.timeZone);
  const zoneChoice = (zone: string) => ({ value: zone, label: timeZoneWord(zone, format.locale) });

  return (
    <section className="max-w-2xl min-w-0 space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      {owner ? (
        <>
          <div className="rounded-lg border border-zinc-200 bg-white p-4 sm:p-6">
            <h2 className="text-lg font-medium">{t("connection.title")}</h2>
            <dl className="mt-4 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[12rem_1fr] sm:gap-y-3">
              <dt className="text-zinc-600">{t("connection.account")}</dt>
              <dd>
                {shop.name} <span className="text-zinc-600">({shop.email})</span>
              </dd>
              <dt className="text-zinc-600">{t("connection.connectedSince")}</dt>
              <dd>
                <time dateTime={connection.connectedAt.toISOString()}>{format.date(connection.connectedAt)}</time>
              </dd>
              <dt className="text-zinc-600">{t("connection.status")}</dt>
              <dd>{connection.needsReconnect ? t("connection.needsReconnect") : t("connection.active")}</dd>
              <dt className="text-zinc-600">{t("connection.granted")}</dt>
              <dd data-testid="granted-scopes">
                <ScopeList scopes={granted} />
                <p className="mt-1 text-xs text-zinc-600">{t("connection.grantedHelp")}</p>
              </dd>
              <dt className="text-zinc-600">{t("connection.missing")}</dt>
              <dd data-testid="missing-scopes">
                {connection.scopesMissing.length > 0 ? <ScopeList scopes={connection.scopesMissing} /> : t("connection.noneMissing")}
              </dd>
            </dl>
          </div>
          <TimeZoneForm current={shop.timeZone} brazilian={BRAZILIAN_TIME_ZONES.map(zoneChoice)} others={otherZones.map(zoneChoice)} />
        </>
      ) : null}
      <div className="rounded-lg border border-zinc-200 bg-white p-4 sm:p-6" data-testid="alerts-settings">
        <h2 className="text-lg font-medium">{t("alerts.title")}</h2>
        <p className="mt-1 text-sm text-zinc-700">{emailChannelOn() ? t("alerts.emailOn") : t("alerts.emailOff")}</p>
        <Link
          href="/inbox/settings"
          className="mt-2 inline-flex min-h-11 items-center text-sm font-medium text-brand-700 hover:underline md:min-h-0"
        >
          {t("alerts.link")}
        </Link>
      </div>
      <section
        id="prices"
        aria-labelledby="prices-settings-title"
        className="space-y-6 rounded-lg border border-zinc-200 bg-white p-4 sm:p-6"
      >
        <div>
          <h2 id="prices-settings-title" className="text-lg font-medium">
            {t("prices.title")}
          </h2>
          <p className="mt-1 text-sm text-zinc-600">{t("prices.help")}</p>
        </div>
        <PricingSettings shopId={shop.id} />
      </section>
      <form action={signOutEverywhereAction} className="rounded-lg border border-zinc-200 bg-white p-4 sm:p-6">
        <h2 className="text-lg font-medium">{t("sessions.title")}</h2>
        <p className="mt-1 text-sm text-zinc-600">{t("sessions.help")}</p>
        <button
          type="submit"
          className="mt-4 rounded-md border border-zinc-300 px-4 py-2 text-sm font-medium text-zinc-800 hover:bg-zinc-50"
        >
          {t("sessions.button")}
        </button>
      </form>
      {owner ? (
        <>
          <form action={disconnectAction.bind(null, shop.id)} className="rounded-lg border border-red-200 bg-white p-4 sm:p-6">
            <h2 className="text-lg font-medium">{t("disconnect.title")}</h2>
            <p className="mt-1 text-sm text-zinc-600">{t("disconnect.help")}</p>
            <button
              type="submit"
              className="mt-4 rounded-md border border-red-300 px-4 py-2 text-sm font-medium text-red-800 hover:bg-red-50"
            >
              {t("disconnect.button")}
            </button>
          </form>
          <form action={deleteMyDataAction.bind(null, shop.id)} className="rounded-lg border border-red-200 bg-white p-4 sm:p-6">
            <h2 className="text-lg font-medium">{t("deleteData.title")}</h2>
            <p className="mt-1 text-sm text-zinc-600">{t("deleteData.help")}</p>
            <button type="submit" className="mt-4 rounded-md bg-red-800 px-4 py-2 text-sm font-medium text-white hover:bg-red-900">
              {t("deleteData.button")}
            </button>
          </form>
        </>
      ) : null}
    </section>
  );
}

/** What each permission lets the dashboard do, in words; a code the dashboard has no words for shows as it is. */
function ScopeList({ scopes }: { scopes: string[] }) {
  const t = useTranslations("settings.connection.scopes");
  return (
    <ul className="list-disc space-y-1 pl-5">
      {scopes.map((scope) => {
        const known = scopeSchema.safeParse(scope);
        return <li key={scope}>{known.success ? t(known.data) : scope}</li>;
      })}
    </ul>
  );
}
