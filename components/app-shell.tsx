import Link from "next/link";
import type { ReactNode } from "react";

export const NAV_ITEMS = [
  { href: "/orders", label: "Orders" },
  { href: "/prices", label: "Prices" },
  { href: "/skus", label: "SKUs" },
  { href: "/webhooks", label: "Webhooks" },
] as const;

export function AppShell({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-zinc-200 bg-white">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-8 px-4">
          <Link href="/" className="font-semibold text-brand-900">
            Seller Dashboard
          </Link>
          <nav aria-label="Main" className="flex gap-1 text-sm">
            {NAV_ITEMS.map((item) => (
              <Link
                key={item.href}
                href={item.href}
                className="rounded-md px-3 py-2 text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
              >
                {item.label}
              </Link>
            ))}
          </nav>
        </div>
      </header>
      <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">{children}</main>
    </div>
  );
}
