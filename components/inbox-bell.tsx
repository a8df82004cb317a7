"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useRef } from "react";
import { queryKeys } from "@/lib/tables/query-keys";

/** The unread count the server answers (features/inbox/inbox-route.server.ts), or null for anything else. */
async function fetchUnread(): Promise<number> {
  const response = await fetch("/api/inbox", { headers: { Accept: "application/json" } });
  const body: unknown = response.ok ? await response.json() : null;
  const unread = body !== null && typeof body === "object" ? (body as { unread?: unknown }).unread : undefined;
  if (typeof unread !== "number" || !Number.isInteger(unread) || unread < 0) throw new Error(`GET /api/inbox answered ${response.status}`);
  return unread;
}

/**
 * The header's bell: the person's unread notifications across their shops (issue 41), rendered
 * with the page, asked again after each navigation and when a live order message arrives
 * (features/webhooks/live). Opens the inbox.
 */
export function InboxBell({ unread }: { unread: number }) {
  const t = useTranslations("inbox.bell");
  const { data: count } = useQuery({ queryKey: queryKeys.inbox.all, queryFn: fetchUnread, initialData: unread, staleTime: Infinity });
  // The header outlives navigations: after one (opening a notification reads it) the count is asked again.
  const queryClient = useQueryClient();
  const pathname = usePathname();
  const countedOn = useRef(pathname);
  useEffect(() => {
    if (countedOn.current === pathname) return;
    countedOn.current = pathname;
    void queryClient.invalidateQueries({ queryKey: queryKeys.inbox.all });
  }, [pathname, queryClient]);
  return (
    <Link
      href="/inbox"
      aria-label={t("label", { count })}
      data-testid="inbox-bell"
      data-unread={count}
      className="relative inline-flex min-h-11 min-w-11 items-center justify-center rounded-md text-zinc-700 hover:bg-zinc-100 lg:min-h-9 lg:min-w-9"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
        <path d="M10 2a5 5 0 0 0-5 5v2.6l-1.4 2.8A1 1 0 0 0 4.5 14h11a1 1 0 0 0 .9-1.6L15 9.6V7a5 5 0 0 0-5-5Zm-2 13a2 2 0 0 0 4 0H8Z" />
      </svg>
      {count > 0 ? (
        <span className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-800 px-1 text-center text-xs leading-5 font-semibold text-white">
          {count > 99 ? "99+" : count}
        </span>
      ) : null}
    </Link>
  );
}
