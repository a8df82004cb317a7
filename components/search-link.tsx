"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect } from "react";

/** Whether a key press belongs to something the person is typing in. */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * The header's search (issue 42): a magnifier at every width that opens the search page; at a desk,
 * "/" (outside a field) or Ctrl/Cmd+K opens it from anywhere, or goes back to its box.
 */
export function SearchLink() {
  const t = useTranslations("search.header");
  const router = useRouter();
  const pathname = usePathname();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const shortcut = (event.key === "k" || event.key === "K") && (event.ctrlKey || event.metaKey) && !event.altKey;
      const slash = event.key === "/" && !event.ctrlKey && !event.metaKey && !event.altKey && !typingIn(event.target);
      if (!shortcut && !slash) return;
      event.preventDefault();
      const box = document.getElementById("search-box");
      if (pathname === "/search" && box) box.focus();
      else router.push("/search");
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [pathname, router]);
  return (
    <Link
      href="/search"
      aria-label={t("open")}
      title={t("open")}
      data-testid="search-link"
      className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-md text-zinc-700 hover:bg-zinc-100 lg:min-h-9 lg:min-w-9"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
        <circle cx="8.5" cy="8.5" r="5.5" />
        <path d="m13 13 4.5 4.5" strokeLinecap="round" />
      </svg>
    </Link>
  );
}
