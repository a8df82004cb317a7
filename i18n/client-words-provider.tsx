import { NextIntlClientProvider } from "next-intl";
import { getMessages } from "next-intl/server";
import type { ReactNode } from "react";
import { CLIENT_WORDS, pickWords } from "@/i18n/client-words";
import type { WordsLayout } from "@/i18n/client-words";

/**
 * Hands the request's language, time zone and formats to the client components below, with the
 * words `layout`'s part of the app reads (i18n/client-words.ts). A layout wraps all it renders in it.
 */
export async function ClientWords({ layout, children }: { layout: WordsLayout; children: ReactNode }) {
  const messages = pickWords((await getMessages()) as Record<string, unknown>, CLIENT_WORDS[layout]);
  return <NextIntlClientProvider messages={messages}>{children}</NextIntlClientProvider>;
}
