import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { ConnectButton } from "@/components/auth/connect-button";
import { LocaleSwitch } from "@/components/locale-switch";
import { signOutAction } from "@/lib/actions/auth";
import { NavLink } from "@/components/nav-link";
import { SiteMenu } from "@/components/site-menu";
import type { CurrentSeller } from "@/lib/data/sellers";

export const NAV_ITEMS = [
  { href: "/orders", key: "orders", section: "/orders" },
  // Prices open on the view a Brazilian seller reads them in: "de" and "por" per product.
  { href: "/prices/products", key: "prices", section: "/prices" },
  { href: "/skus", key: "skus", section: "/skus" },
  { href: "/webhooks", key: "webhooks", section: "/webhooks" },
  { href: "/settings", key: "settings", section: "/settings" },
] as const;

export function AppShell({ seller, children }: { seller: CurrentSeller | null; children: ReactNode }) {
  const t = useTranslations("shell");
  return (
    <div className="flex min-h-screen flex-col">
      <header className="relative border-b border-zinc-200 bg-white">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-4 px-4 lg:gap-8">
          <Link href="/" className="inline-flex min-h-11 items-center font-semibold text-brand-900">
            {t("brand")}
          </Link>
          <SiteMenu openLabel={t("menu")} closeLabel={t("closeMenu")}>
            <nav aria-label={t("mainNavigation")} className="text-sm">
              <ul className="flex flex-col gap-1 lg:flex-row">
                {NAV_ITEMS.map((item) => (
                  <li key={item.href}>
                    <NavLink href={item.href} section={item.section} label={t(`nav.${item.key}`)} />
                  </li>
                ))}
              </ul>
            </nav>
            <div className="flex flex-col gap-4 border-t border-zinc-200 pt-4 lg:ml-auto lg:flex-row lg:items-center lg:border-0 lg:pt-0">
              <LocaleSwitch />
              <div className="text-sm lg:text-right" data-testid="account">
                {seller ? (
                  <>
                    <div className="font-medium text-zinc-900">{seller.name}</div>
                    <div className="break-all text-xs text-zinc-600">{seller.email}</div>
                    {/* Ends this browser's session only; Settings → Disconnect ends the connection and every session. */}
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
      {seller?.connection.needsReconnect ? (
        <div role="status" className="border-b border-amber-200 bg-amber-50">
          <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2 text-sm text-amber-900">
            <span>{t("accessRevoked")}</span>
            <ConnectButton>{t("reconnect")}</ConnectButton>
          </div>
        </div>
      ) : null}
      <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-6 sm:py-8">{children}</main>
    </div>
  );
}
