import { useLocale, useTranslations } from "next-intl";
import { LOCALES, LOCALE_NAMES } from "@/i18n/config";
import { setLocaleAction } from "@/lib/auth/locale-action";

/**
 * The header's language switch: one button per language, each named in its own language (and
 * marked with its `lang`, so a screen reader pronounces it right). A plain form: it works before
 * the page's scripts load, and the choice is kept in a cookie (features/settings/actions.ts).
 */
export function LocaleSwitch() {
  const current = useLocale();
  const t = useTranslations("shell");
  return (
    <form action={setLocaleAction} aria-label={t("language")} className="flex gap-1 text-sm lg:text-xs">
      {LOCALES.map((locale) => (
        <button
          key={locale}
          type="submit"
          name="locale"
          value={locale}
          lang={locale}
          aria-pressed={locale === current}
          className={`min-h-11 min-w-11 rounded px-3 lg:min-h-8 lg:min-w-0 lg:px-2 ${locale === current ? "bg-zinc-100 font-medium text-zinc-900" : "text-zinc-600 hover:bg-zinc-100"}`}
        >
          {LOCALE_NAMES[locale]}
        </button>
      ))}
    </form>
  );
}
