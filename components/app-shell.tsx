import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { ConnectButton } from "@/components/auth/connect-button";
import { LocaleSwitch } from "@/components/locale-switch";
import { signOutAction } from "@/lib/actions/auth";
import { NavLink } from "@/components/nav-link";
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
      <header className="border-b border-zinc-200 bg-white">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-8 px-4">
          <Link href="/" className="font-semibold text-brand-900">
            {t("brand")}
          </Link>
          <nav aria-label={t("mainNavigation")} className="flex gap-1 text-sm">
            {NAV_ITEMS.map((item) => (
              <NavLink key={item.href} href={item.href} section={item.section} label={t(`nav.${item.key}`)} />
            ))}
          </nav>
          <div className="ml-auto flex items-center gap-4">
            <LocaleSwitch />
            <div className="text-right text-sm" data-testid="account">
              {seller ? (
                <>
                  <div className="font-medium text-zinc-900">{seller.name}</div>
                  <div className="text-xs text-zinc-500">{seller.email}</div>
                  {/* Ends this browser's session only; Settings → Disconnect ends the connection and every session. */}
                  <form action={signOutAction}>
                    <button type="submit" className="text-xs font-medium text-brand-700 hover:underline">
                      {t("signOut")}
                    </button>
                  </form>
                </>
              ) : (
                <Link href="/connect" className="font-medium text-brand-700 hover:underline">
                  {t("connectAccount")}
                </Link>
              )}
            </div>
          </div>
        </div>
      </header>
      {seller?.connection.needsReconnect ? (
        <div role="status" className="border-b border-amber-200 bg-amber-50">
          <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-2 text-sm text-amber-900">
            <span>{t("accessRevoked")}</span>
            <ConnectButton>{t("reconnect")}</ConnectButton>
          </div>
        </div>
      ) : null}
      <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">{children}</main>
    </div>
  );
}
