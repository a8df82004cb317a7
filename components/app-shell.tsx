import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { LocaleSwitch } from "@/components/locale-switch";
import { InboxBell } from "@/components/inbox-bell";
import { SearchLink } from "@/components/search-link";
import { ShopNav } from "@/components/shop-nav";
import { ShopSwitcher } from "@/components/shop-switcher";
import { signOutAction } from "@/lib/auth/actions";
import { SiteMenu } from "@/components/site-menu";
import { DisclosureChevron } from "@/components/ui/disclosure-chevron";
import type { CurrentPerson } from "@/lib/people/people.server";

/**
 * The header. Its first row: the brand, the shop the page is about (by name, at every width), then
 * the language, search and the bell (the person's notifications) and the signed-in person's menu. At a desk the shop's sections are its second row;
 * on a phone they, the language and the person fold behind the menu button. Every item keeps to
 * one line in both languages (tests/e2e/header.spec.ts), so nothing wraps or breaks a word.
 */
export function AppShell({ person, unread, children }: { person: CurrentPerson | null; unread: number; children: ReactNode }) {
  const t = useTranslations("shell");
  const shops = person?.shops.map(({ id, name, role }) => ({ id, name, role })) ?? [];
  return (
    <div className="flex min-h-screen flex-col">
      <header className="relative border-b border-zinc-200 bg-white">
        <div className="mx-auto flex min-h-14 max-w-6xl flex-wrap items-center gap-3 px-4 lg:grid lg:grid-cols-[auto_minmax(0,auto)_1fr_auto_auto_auto] lg:gap-x-6 lg:gap-y-0">
          <Link href="/" className="inline-flex min-h-11 shrink-0 items-center whitespace-nowrap font-semibold text-brand-900">
            {t("brand")}
          </Link>
          {person ? <ShopSwitcher shops={shops} /> : null}
          <SiteMenu openLabel={t("menu")} closeLabel={t("closeMenu")}>
            {person ? <ShopNav shops={shops} /> : null}
            <div className="border-t border-zinc-200 pt-4 lg:col-start-4 lg:row-start-1 lg:border-0 lg:pt-0">
              <LocaleSwitch />
            </div>
            <div className="text-sm lg:col-start-6 lg:row-start-1" data-testid="account">
              {person ? (
                <details className="group relative">
                  <summary className="flex min-h-11 cursor-pointer list-none items-center gap-1 rounded-md px-3 font-medium text-zinc-900 hover:bg-zinc-100 lg:min-h-9 [&::-webkit-details-marker]:hidden">
                    <span className="max-w-48 truncate">{person.name}</span>
                    <DisclosureChevron />
                  </summary>
                  <div className="mt-1 flex flex-col gap-1 p-2 lg:absolute lg:right-0 lg:top-full lg:z-50 lg:w-72 lg:rounded-md lg:border lg:border-zinc-200 lg:bg-white lg:shadow-lg">
                    {person.marketplaceEmail ? <p className="break-all px-3 text-xs text-zinc-600">{person.marketplaceEmail}</p> : null}
                    <Link href="/account" className="flex min-h-11 items-center rounded-md px-3 hover:bg-zinc-100 lg:min-h-9">
                      {t("account")}
                    </Link>
                    {/* Ends this browser's session only; Account → "Sign out everywhere" ends every one. */}
                    <form action={signOutAction}>
                      <button
                        type="submit"
                        className="flex min-h-11 w-full items-center rounded-md px-3 text-left font-medium text-brand-700 hover:bg-zinc-100 lg:min-h-9"
                      >
                        {t("signOut")}
                      </button>
                    </form>
                  </div>
                </details>
              ) : (
                <Link
                  href="/connect"
                  className="inline-flex min-h-11 items-center whitespace-nowrap font-medium text-brand-700 hover:underline lg:min-h-0"
                >
                  {t("connectAccount")}
                </Link>
              )}
            </div>
          </SiteMenu>
          {/* Outside the menu: seen at every width. */}
          {person ? (
            <div className="flex items-center gap-1 lg:col-start-5 lg:row-start-1">
              <SearchLink />
              <InboxBell unread={unread} />
            </div>
          ) : null}
        </div>
      </header>
      <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-6 sm:py-8">{children}</main>
    </div>
  );
}
