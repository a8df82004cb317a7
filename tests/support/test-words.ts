import { createTranslator } from "next-intl";
import type { Locale } from "@/i18n/config";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import type { Words } from "@/lib/words/words";

export const wordsIn = (locale: Locale) =>
  createTranslator({ locale, messages: catalogues[locale] as Messages, namespace: "words" }) as unknown as Words;
