import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { listPasskeys } from "@/features/people/passkeys.server";
import { PasskeyList } from "@/features/people/components/passkey-list";
import { signOutEverywhereAction } from "@/lib/auth/actions";
import { requirePerson } from "@/lib/auth/session.server";
import { shopPath } from "@/lib/shops/paths";
import { ConnectButton } from "@/components/auth/connect-button";
import { PushDevice } from "@/features/notifications/components";
import { env } from "@/lib/env";

export async function accountPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("people.account"))("title") };
}

const card = "rounded-lg border border-zinc-200 bg-white p-4 sm:p-6";

/** The signed-in person's own page: who they are, how they sign in, their shops and passkeys. */
export async function AccountPage() {
  const person = await requirePerson();
  const [t, shell, passkeys] = await Promise.all([getTranslations("people"), getTranslations("shell"), listPasskeys(person.id)]);

  return (
    <section className="max-w-2xl min-w-0 space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t("account.title")}</h1>
      <div className={card}>
        <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[12rem_1fr] sm:gap-y-3">
          <dt className="text-zinc-600">{t("account.name")}</dt>
          <dd className="break-words">{person.name}</dd>
          <dt className="text-zinc-600">{t("account.signInTitle")}</dt>
          <dd className="break-words" data-testid="sign-in-methods">
            {person.marketplaceEmail ? t("account.marketplace", { email: person.marketplaceEmail }) : t("account.passkeysOnly")}
          </dd>
        </dl>
      </div>

      <div className={card}>
        <h2 className="text-lg font-medium">{t("account.shopsTitle")}</h2>
        {person.shops.length === 0 ? (
          <p className="mt-2 text-sm text-zinc-700">{t("account.shopsEmpty")}</p>
        ) : (
          <ul className="mt-2 divide-y divide-zinc-200" data-testid="account-shops">
            {person.shops.map((shop) => (
              <li key={shop.id} className="flex flex-wrap items-center justify-between gap-x-4 py-1 text-sm">
                <Link
                  href={shopPath(shop.id)}
                  className="inline-flex min-h-11 min-w-0 items-center font-medium break-words text-brand-700 hover:underline"
                >
                  {shop.name}
                </Link>
                <span className="text-zinc-600">
                  {t(`roles.${shop.role}`)}
                  {shop.connected ? null : ` · ${t("account.notConnected")}`}
                </span>
              </li>
            ))}
          </ul>
        )}
        {/* An agency's next client: the marketplace login of that shop's account. */}
        <div className="mt-4">
          <ConnectButton>{shell("shop.connectAnother")}</ConnectButton>
        </div>
      </div>

      <PushDevice publicKey={env.VAPID_PUBLIC_KEY} />

      <PasskeyList passkeys={passkeys} onlyWayIn={person.marketplaceEmail === null} />

      <form action={signOutEverywhereAction} className={card}>
        <h2 className="text-lg font-medium">{t("account.sessionsTitle")}</h2>
        <p className="mt-1 text-sm text-zinc-600">{t("account.sessionsHelp")}</p>
        <button
          type="submit"
          className="mt-4 rounded-md border border-zinc-300 px-4 py-2 text-sm font-medium text-zinc-800 hover:bg-zinc-50"
        >
          {t("account.sessionsButton")}
        </button>
      </form>
    </section>
  );
}
