import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { LocaleSwitch } from "@/components/locale-switch";
import { ShopNav } from "@/components/shop-nav";
import { signOutAction } from "@/lib/auth/actions";
import { SiteMenu } from "@/components/site-menu";
import type { CurrentPerson } from "@/lib/people/people.server";

/**
 * The header: the sections of the shop the page is about (ShopNav, by the page's URL), language,
 * and the signed-in person. Shop pages add the shop's name and role under it (app/s/[shopId]/layout.tsx).
 */
export function AppShell({ person, children }: { person: CurrentPerson | null; children: ReactNode }) {
  const t = useTranslations("shell");
  return (
    <div className="flex min-h-screen flex-col">
      <header className="relative border-b border-zinc-200 bg-white">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-4 px-4 lg:gap-8">
          <Link href="/" className="inline-flex min-h-11 items-center font-semibold text-brand-900">
            {t("brand")}
          </Link>
          <SiteMenu openLabel={t("menu")} closeLabel={t("closeMenu")}>
            {person ? <ShopNav shops={person.shops.map(({ id, name, role }) => ({ id, name, role }))} /> : null}
            <div className="flex flex-col gap-4 border-t border-zinc-200 pt-4 lg:ml-auto lg:flex-row lg:items-center lg:border-0 lg:pt-0">
              <LocaleSwitch />
              <div className="text-sm lg:text-right" data-testid="account">
                {person ? (
                  <>
                    <Link href="/account" className="font-medium text-zinc-900 hover:underline">
                      {person.name}
                    </Link>
                    {person.marketplaceEmail ? <div className="break-all text-xs text-zinc-600">{person.marketplaceEmail}</div> : null}
                    {/* Ends this browser's session only; Account → "Sign out everywhere" ends every one. */}
                    <form action={signOutAction}>
                      <button type="submit" className="min-h-11 text-sm font-medium text-brand-700 hover:underline lg:min-h-0 lg:text-xs">
                        {t("signOut")}
                      </button>
                    </form>
                  </>
                ) : (
                  <Link href="/connect" className="inline-flex min-h-11 items-center font-medium text-brand-700 hover:underline lg:min-h-0">
                    {t("connectAccount")}
                  </Link>
                )}
              </div>
            </div>
          </SiteMenu>
        </div>
      </header>
      <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-6 sm:py-8">{children}</main>
    </div>
  );
}
