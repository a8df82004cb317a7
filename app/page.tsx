import { useTranslations } from "next-intl";
import Link from "next/link";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { ConnectButton } from "@/components/auth/connect-button";
import { getCurrentPerson } from "@/lib/auth/session.server";
import { LAST_SHOP_COOKIE, lastShopOf } from "@/lib/shops/last-shop";
import { shopPath } from "@/lib/shops/paths";

// The start: signed out, what the dashboard is; signed in, the shop opened last (or the list of
// shops when there is none to go back to).
export default async function HomePage({ searchParams }: PageProps<"/">) {
  const person = await getCurrentPerson();
  if (!person) return <Landing />;
  // Just back from connecting a shop: that shop (the person's last connected), with a word that it is.
  const connected =
    (await searchParams).connected === "1" ? person.shops.find((shop) => shop.id === person.lastShopId && shop.connected) : undefined;
  if (connected) redirect(`${shopPath(connected.id)}?connected=1`);
  const last = lastShopOf(person, (await cookies()).get(LAST_SHOP_COOKIE)?.value);
  redirect(last ? shopPath(last) : "/shops");
}

function Landing() {
  const t = useTranslations("overview.landing");
  return (
    <section className="mx-auto max-w-2xl py-16 text-center">
      <h1 className="text-3xl font-semibold tracking-tight text-zinc-900">{t("title")}</h1>
      <p className="mt-4 text-zinc-600">{t("intro")}</p>
      <div className="mt-8 flex justify-center">
        <ConnectButton />
      </div>
      {/* A team member signs in with a passkey or their own marketplace login, on /connect. */}
      <p className="mt-6 text-sm text-zinc-600">
        {t("member")}{" "}
        <Link href="/connect" className="inline-flex min-h-11 items-center font-medium text-brand-700 underline">
          {t("signIn")}
        </Link>
      </p>
    </section>
  );
}
