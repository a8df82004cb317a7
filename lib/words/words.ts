// The catalogue of words for the platform's codes (STYLE 26): every code a seller can see goes
// through a function of lib/words/, which takes next-intl's `t` for the `words` namespace
// (messages/<locale>/words.json), so server and client components share it. Plain module.
import type { useTranslations } from "next-intl";

export type Words = ReturnType<typeof useTranslations<"words">>;

export function isOneOf<const C extends string>(codes: readonly C[], code: string): code is C {
  return (codes as readonly string[]).includes(code);
}

/**
 * A code the catalogue has no word for, as the platform sent it and marked as such ("Other:
 * foo_bar"): the platform may add codes before this dashboard knows them, and a blank cell would
 * hide that something happened.
 */
export function otherWord(t: Words, code: string): string {
  return t("other", { code: code.trim() || "—" });
}
