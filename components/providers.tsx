"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { ReactNode } from "react";
import { Toaster } from "sonner";

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { staleTime: 15_000, refetchOnWindowFocus: false, retry: 1 },
        },
      }),
  );
  // The page has hydrated: browser tests wait for this before using a control whose whole work is
  // done in the browser, with no form action to replay (tests/e2e/support.ts, gotoHydrated).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      {/* At the bottom: on a phone a toast spans the screen's width, and at the top it covered the
          header's menu button (a tap meant for the menu opened the toast's order instead). */}
      <Toaster position="bottom-right" richColors closeButton />
    </QueryClientProvider>
  );
}
