import type { Metadata } from "next";
import type { ReactNode } from "react";
import { AppShell } from "@/components/app-shell";
import { LiveUpdates } from "@/components/live/live-updates";
import { Providers } from "@/components/providers";
import { getCurrentSeller } from "@/lib/auth/session";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Seller Dashboard", template: "%s · Seller Dashboard" },
  description: "Manage your marketplace orders, prices, SKUs and webhooks.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const seller = await getCurrentSeller();
  return (
    <html lang="en">
      <body>
        <Providers>
          <AppShell seller={seller}>{children}</AppShell>
          {seller ? <LiveUpdates /> : null}
        </Providers>
      </body>
    </html>
  );
}
