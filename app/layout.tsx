import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import { getLocale, getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { AppShell } from "@/components/app-shell";
import { ClientWords } from "@/i18n/client-words-provider";
import { unreadCount } from "@/features/inbox";
import { Providers } from "@/components/providers";
import { getCurrentPerson } from "@/lib/auth/session.server";
import { BRAND_COLOR } from "@/lib/brand";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("shell");
  return {
    title: { default: t("brand"), template: `%s · ${t("brand")}` },
    description: t("description"),
    icons: {
      icon: [
        { url: "/icons/icon-32.png", sizes: "32x32", type: "image/png" },
        { url: "/icons/icon-192.png", sizes: "192x192", type: "image/png" },
      ],
      apple: "/icons/apple-touch-icon.png",
    },
    appleWebApp: { capable: true, title: t("shortName"), statusBarStyle: "default" },
  };
}

// The browser's chrome takes the brand colour on a phone; the page is laid out for the device's width.
export const viewport: Viewport = { themeColor: BRAND_COLOR, width: "device-width", initialScale: 1 };

// Before any of the page's scripts: zod (used in the browser for filters and forms) must not
// probe whether it may compile code, which the Content-Security-Policy (proxy.ts) forbids and the
// browser would report as a violation. The nonce is the one the proxy put in the policy.
const ZOD_WITHOUT_EVAL = "globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });";

export default async function RootLayout({ children }: { children: ReactNode }) {
  const person = await getCurrentPerson();
  const unread = person ? await unreadCount(person.id) : 0;
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <html lang={await getLocale()}>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: ZOD_WITHOUT_EVAL }} />
      </head>
      <body>
        {/* The request's language, time zone and formats, and the words the header and the pages
            outside a shop read, for client components; a shop's layouts give their own. */}
        <ClientWords layout="">
          <Providers>
            <AppShell person={person} unread={unread}>
              {children}
            </AppShell>
          </Providers>
        </ClientWords>
      </body>
    </html>
  );
}
