// Every platform code a seller can see is worded through lib/words/, on server and client alike.
import type { useTranslations } from "next-intl";

export type Words = ReturnType<typeof useTranslations<"words">>;

export function isOneOf<const C extends string>(codes: readonly C[], code: string): code is C {
  return (codes as readonly string[]).includes(code);
}

/** "Other: foo_bar": the platform may add codes before we know them, and a blank would hide them. */
export function otherWord(t: Words, code: string): string {
  return t("other", { code: code.trim() || "—" });
}
