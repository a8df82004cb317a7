import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { AppShell } from "@/components/app-shell";
import { LiveUpdates } from "@/components/live/live-updates";
import { latestLiveMessageId } from "@/lib/live/bus";
import { Providers } from "@/components/providers";
import { getCurrentSeller } from "@/lib/auth/session";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Seller Dashboard", template: "%s · Seller Dashboard" },
  description: "Manage your marketplace orders, prices, SKUs and webhooks.",
};

// Before any of the page's scripts: zod (used in the browser for filters and forms) must not
// probe whether it may compile code, which the Content-Security-Policy (proxy.ts) forbids and the
// browser would report as a violation. The nonce is the one the proxy put in the policy.
const ZOD_WITHOUT_EVAL = "globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });";

export default async function RootLayout({ children }: { children: ReactNode }) {
  const seller = await getCurrentSeller();
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <html lang="en">
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: ZOD_WITHOUT_EVAL }} />
      </head>
      <body>
        <Providers>
          <AppShell seller={seller}>{children}</AppShell>
          {seller ? <LiveUpdates after={await latestLiveMessageId()} /> : null}
        </Providers>
      </body>
    </html>
  );
}
