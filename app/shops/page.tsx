import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ConnectButton } from "@/components/auth/connect-button";
import { requirePerson } from "@/lib/auth/session.server";
import { shopPath } from "@/lib/shops/paths";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("members.shops"))("title") };
}

// Every shop the person is in, with their role; a disconnected one says who can bring it back.
export default async function ShopsPage() {
  const person = await requirePerson();
  const [t, shell] = await Promise.all([getTranslations("members.shops"), getTranslations("shell")]);
  return (
    <section className="mx-auto max-w-2xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="mt-1 text-sm text-zinc-600">{person.shops.length > 0 ? t("intro") : t("none")}</p>
      </div>
      {person.shops.length > 0 ? (
        <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white" data-testid="shops">
          {person.shops.map((shop) => (
            <li key={shop.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
              <div className="min-w-0">
                {shop.connected ? (
                  <Link
                    href={shopPath(shop.id)}
                    className="inline-flex min-h-11 items-center font-medium text-brand-700 hover:underline"
                    aria-label={t("open", { name: shop.name })}
                  >
                    {shop.name}
                  </Link>
                ) : (
                  <span className="font-medium text-zinc-900">{shop.name}</span>
                )}
                <p className="break-all text-sm text-zinc-600">
                  {shop.email} · {shell(`roles.${shop.role}`)}
                </p>
                {shop.connected ? null : <p className="text-sm text-amber-900">{t("disconnected")}</p>}
              </div>
              {!shop.connected && shop.role === "owner" ? <ConnectButton>{t("connectAgain")}</ConnectButton> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <ConnectButton>{person.shops.length > 0 ? shell("shop.connectAnother") : t("connect")}</ConnectButton>
    </section>
  );
}
