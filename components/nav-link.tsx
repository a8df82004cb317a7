"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** A main-navigation link that marks the section (`section`, a path prefix) the seller is in (aria-current). */
export function NavLink({ href, section, label }: { href: string; section: string; label: string }) {
  const pathname = usePathname();
  const active = pathname === section || pathname.startsWith(`${section}/`);
  return (
    <Link
      href={href}
      aria-current={active ? "page" : undefined}
      className={`flex min-h-11 items-center rounded-md px-3 hover:bg-zinc-100 lg:min-h-9 hover:text-zinc-900 ${active ? "bg-zinc-100 font-medium text-zinc-900" : "text-zinc-600"}`}
    >
      {label}
    </Link>
  );
}
